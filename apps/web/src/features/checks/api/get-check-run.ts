import { type CheckRun, checkEndpoints } from '@pledgewatch/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { CHECK_RUN_POLL_MS, isRunActive } from './get-check-runs';

/** One run with its progress per source (the list leaves `sources` empty). */
export const getCheckRun = (id: string): Promise<CheckRun> =>
  callEndpoint(checkEndpoints.run, { params: { id } });

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
