import type { MeResponse, TokenResponse, User } from '@pledgewatch/contract/auth';
import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';
import { callEndpoint } from './api-client';
import { markSessionEnded, markSignedIn, mayHaveSession } from './auth-token';
import { signedOutEndpoints } from './signed-out-endpoints';

/** The signed-in user lives in lib (not a feature) because the layout and every feature need it. */
export const getMe = (): Promise<MeResponse> => callEndpoint(signedOutEndpoints.me);

export const meQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.auth.me,
    queryFn: getMe,
    staleTime: 5 * 60_000,
  });

export function useUser(): User | undefined {
  // Just signed out: a refetch could only answer 401, so do not ask.
  return useQuery({ ...meQueryOptions(), enabled: mayHaveSession() }).data?.user;
}

/**
 * Starts a route's data with its code once the current user is known (the layout asks for it at the
 * same time; the request is shared). Without a session nothing more is asked: the layout redirects.
 */
export function prefetchWhenSignedIn(queryClient: QueryClient, prefetch: () => Promise<unknown>): void {
  if (mayHaveSession()) {
    void queryClient.ensureQueryData(meQueryOptions()).then(prefetch, () => undefined);
  }
}

export type LoginInput = { username: string; password: string };

export async function login({ username, password }: LoginInput): Promise<TokenResponse> {
  // The seed's OAuth2 password form: client_id and client_secret are sent, but empty.
  const token = await callEndpoint(signedOutEndpoints.login, {
    body: {
      grant_type: 'password',
      username,
      password,
      scope: '',
      client_id: '',
      client_secret: '',
    },
  });
  // The server set the HttpOnly session cookie; the token in the body is for API clients and is not kept.
  markSignedIn();
  return token;
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: async () => {
      queryClient.clear();
      await queryClient.prefetchQuery(meQueryOptions());
    },
  });
}

export async function logout(): Promise<void> {
  try {
    await callEndpoint(signedOutEndpoints.logout);
  } finally {
    // Signing out locally must work even if the server is unreachable or the session already ended.
    markSessionEnded();
  }
}

export function useLogout({ onDone }: { onDone: () => void | Promise<void> }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSettled: async () => {
      // Leave the signed-in screens first: clearing while they are mounted makes them refetch (and 401).
      await onDone();
      queryClient.clear();
    },
  });
}
