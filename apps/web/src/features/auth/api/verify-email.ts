import type { MessageResponse, VerifyEmailBody } from '@pledgewatch/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { signedOutEndpoints } from '@/lib/signed-out-endpoints';

export const verifyEmail = (body: VerifyEmailBody): Promise<MessageResponse> =>
  callEndpoint(signedOutEndpoints.verifyEmail, { body });

/**
 * A query, not a mutation, on purpose: the token is single-use, and a query keyed by the token runs
 * once even when React mounts the screen twice (StrictMode, revisits), so the second POST cannot turn
 * a success into "token already used".
 */
export const verifyEmailQueryOptions = (token: string) =>
  queryOptions({
    queryKey: queryKeys.verifyEmail.token(token),
    queryFn: () => verifyEmail({ token }),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    retry: false,
  });

export const useVerifyEmail = (token: string) =>
  useQuery({ ...verifyEmailQueryOptions(token), enabled: token.length > 0 });
