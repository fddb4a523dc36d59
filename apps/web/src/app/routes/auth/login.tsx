import type { QueryClient } from '@tanstack/react-query';
import { type LoaderFunctionArgs, redirect, useNavigate, useSearchParams } from 'react-router';
import { REDIRECT_PARAM, safeRedirectTarget } from '@/config/paths';
import { LoginForm } from '@/features/auth/components/login-form';
import { meQueryOptions } from '@/lib/auth';
import { mayHaveSession } from '@/lib/auth-token';

/** Already signed in in this tab: skip the form. A stale session is caught by the next screen's 401. */
export const clientLoader =
  (queryClient: QueryClient) =>
  ({ request }: LoaderFunctionArgs) => {
    if (mayHaveSession() && queryClient.getQueryData(meQueryOptions().queryKey)) {
      throw redirect(safeRedirectTarget(new URL(request.url).searchParams.get(REDIRECT_PARAM)));
    }
    return null;
  };

export default function LoginRoute() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const target = safeRedirectTarget(searchParams.get(REDIRECT_PARAM));
  return <LoginForm onSuccess={() => navigate(target, { replace: true })} />;
}
