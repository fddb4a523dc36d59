import { useNavigate, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { texts } from '@/config/texts-signed-out';
import { ResetPasswordConfirmForm } from '@/features/auth/components/reset-password-confirm-form';
import { ResetPasswordRequestForm } from '@/features/auth/components/reset-password-request-form';
import { markSessionEnded } from '@/lib/auth-token';
import { showSuccessToast } from '@/lib/toast-host';

/** Without ?token= the user asks for a letter; with it (the link from the letter) sets a new password. */
export default function ResetPasswordRoute() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const token = searchParams.get('token');
  // The invitation mail links here with &invite=1: the same form, but the words of an invitation.
  const invitation = searchParams.get('invite') === '1';

  if (!token) {
    return <ResetPasswordRequestForm />;
  }
  return (
    <ResetPasswordConfirmForm
      token={token}
      invitation={invitation}
      onSuccess={() => {
        // A reset ends the account's sessions, so a session cookie in this browser is no longer valid.
        markSessionEnded();
        showSuccessToast(invitation ? texts.invitation.success : texts.resetPassword.success);
        void navigate(paths.auth.getHref(), { replace: true });
      }}
    />
  );
}
