import type { QueryClient } from '@tanstack/react-query';
import { type LoaderFunctionArgs, redirect, useNavigate, useSearchParams } from 'react-router';
import { REDIRECT_PARAM, safeRedirectTarget } from '@/config/paths';
import { LoginForm } from '@/features/auth/components/login-form';
import { getAuthToken } from '@/lib/auth-token';

/** Already signed in: skip the form. A stale token is caught by the next screen's 401. */
export const clientLoader =
  (_queryClient: QueryClient) =>
  ({ request }: LoaderFunctionArgs) => {
    if (getAuthToken()) {
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
