import { type DashboardResponse, monitoringEndpoints } from '@pledgewatch/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const DASHBOARD_POLL_MS = 3000;

export const getDashboard = (): Promise<DashboardResponse> => callEndpoint(monitoringEndpoints.dashboard);

export const dashboardQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.dashboard.one,
    queryFn: getDashboard,
  });

const runActive = (data: DashboardResponse | undefined) =>
  data?.lastRun?.status === 'queued' || data?.lastRun?.status === 'running';

/** Polls while the last regular check is still going, so its progress moves on the screen. */
export const useDashboard = () =>
  useQuery({
    ...dashboardQueryOptions(),
    refetchInterval: (query) => (runActive(query.state.data) ? DASHBOARD_POLL_MS : false),
  });
