import { type EndpointQuery, type PledgeEventsResponse, pledgeEndpoints } from '@pledgewatch/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { SHARED_WORK_STALE_MS } from './shared-work';

export type PledgeEventsFilter = EndpointQuery<typeof pledgeEndpoints.events>;

export const getPledgeEvents = (query: PledgeEventsFilter): Promise<PledgeEventsResponse> =>
  callEndpoint(pledgeEndpoints.events, { query: { ...query, lapsing: query.lapsing || undefined } });

export const pledgeEventsQueryOptions = (query: PledgeEventsFilter) =>
  queryOptions({
    queryKey: queryKeys.pledges.events(query),
    staleTime: SHARED_WORK_STALE_MS,
    queryFn: () => getPledgeEvents(query),
  });

export const usePledgeEvents = (query: PledgeEventsFilter) =>
  useQuery({ ...pledgeEventsQueryOptions(query), placeholderData: keepPreviousData });
