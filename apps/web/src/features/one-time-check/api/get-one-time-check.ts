import { checkEndpoints, type OneTimeCheck } from '@pledgewatch/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const getOneTimeCheck = (id: string): Promise<OneTimeCheck> =>
  callEndpoint(checkEndpoints.oneTimeCheckById, { params: { id } });

export const oneTimeCheckQueryOptions = (id: string) =>
  queryOptions({
    queryKey: queryKeys.oneTimeChecks.one(id),
    queryFn: () => getOneTimeCheck(id),
    // A finished check never changes.
    staleTime: Number.POSITIVE_INFINITY,
  });

export const useOneTimeCheck = (id: string | null) =>
  useQuery({ ...oneTimeCheckQueryOptions(id ?? ''), enabled: Boolean(id) });
