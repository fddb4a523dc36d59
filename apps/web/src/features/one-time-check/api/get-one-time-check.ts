import { API, type OneTimeCheck } from '@pledgewatch/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const getOneTimeCheck = (id: string): Promise<OneTimeCheck> =>
  api.get<OneTimeCheck>(API.oneTimeCheckById(id));

export const oneTimeCheckQueryOptions = (id: string) =>
  queryOptions({
    queryKey: queryKeys.oneTimeChecks.one(id),
    queryFn: () => getOneTimeCheck(id),
    // A finished check never changes.
    staleTime: Number.POSITIVE_INFINITY,
  });

export const useOneTimeCheck = (id: string | null) =>
  useQuery({ ...oneTimeCheckQueryOptions(id ?? ''), enabled: Boolean(id) });
