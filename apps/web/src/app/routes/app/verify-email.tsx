import { useSearchParams } from 'react-router';
import { Page } from '@/components/ui/page';
import { texts } from '@/config/texts';
import { VerifyEmailStatus } from '@/features/auth/components/verify-email-status';

/** Opened from the letter (/verify-email or /auth/verify-email with ?token=). */
export default function VerifyEmailRoute() {
  const [searchParams] = useSearchParams();
  return (
    <Page title={texts.verifyEmail.title}>
      <VerifyEmailStatus token={searchParams.get('token') ?? ''} />
    </Page>
  );
}
