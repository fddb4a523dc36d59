import {
  type CheckRun,
  checkEndpoints,
  type EndpointQuery,
  type EndpointResponse,
  type WithRequired,
} from '@pledgewatch/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export type CheckRunsQuery = WithRequired<EndpointQuery<typeof checkEndpoints.runs>, 'page' | 'pageSize'>;
export type CheckRunsPage = EndpointResponse<typeof checkEndpoints.runs>;

export const CHECK_RUN_POLL_MS = 2000;

export const isRunActive = (run: Pick<CheckRun, 'status'>): boolean =>
  run.status === 'queued' || run.status === 'running';

export const getCheckRuns = (query: CheckRunsQuery): Promise<CheckRunsPage> =>
  callEndpoint(checkEndpoints.runs, { query });

export const checkRunsQueryOptions = (query: CheckRunsQuery) =>
  queryOptions({
    queryKey: queryKeys.checks.runList(query),
    queryFn: () => getCheckRuns(query),
  });

export const useCheckRuns = (query: CheckRunsQuery) =>
  useQuery({
    ...checkRunsQueryOptions(query),
    placeholderData: keepPreviousData,
    // Polls only while a run on the page is still going.
    refetchInterval: (query) => (query.state.data?.items.some(isRunActive) ? CHECK_RUN_POLL_MS : false),
  });
