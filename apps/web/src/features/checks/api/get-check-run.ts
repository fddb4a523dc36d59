import { API, type CheckRun } from '@pledgewatch/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { CHECK_RUN_POLL_MS, isRunActive } from './get-check-runs';

/** One run with its progress per source (the list leaves `sources` empty). */
export const getCheckRun = (id: string): Promise<CheckRun> => api.get<CheckRun>(API.checkRun(id));

export const checkRunQueryOptions = (id: string) =>
  queryOptions({
    queryKey: queryKeys.checks.run(id),
    queryFn: () => getCheckRun(id),
  });

export const useCheckRun = (id: string, enabled: boolean) =>
  useQuery({
    ...checkRunQueryOptions(id),
    enabled,
    refetchInterval: (query) =>
      query.state.data && isRunActive(query.state.data) ? CHECK_RUN_POLL_MS : false,
  });
