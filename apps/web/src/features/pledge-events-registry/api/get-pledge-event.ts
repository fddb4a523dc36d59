import { type PledgeEventDetail, pledgeEndpoints } from '@pledgewatch/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { SHARED_WORK_STALE_MS } from './shared-work';

export const getPledgeEvent = (id: string): Promise<PledgeEventDetail> =>
  callEndpoint(pledgeEndpoints.event, { params: { id } });

export const pledgeEventQueryOptions = (id: string) =>
  queryOptions({
    queryKey: queryKeys.pledges.event(id),
    staleTime: SHARED_WORK_STALE_MS,
    queryFn: () => getPledgeEvent(id),
  });

export const usePledgeEvent = (id: string | null) =>
  useQuery({ ...pledgeEventQueryOptions(id ?? ''), enabled: Boolean(id) });
