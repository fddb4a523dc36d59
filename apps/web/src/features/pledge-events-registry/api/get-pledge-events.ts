import { API, type PledgeEventsResponse } from '@pledgewatch/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export type PledgeEventsFilter = {
  page: number;
  pageSize: number;
  kind?: string;
  status?: string;
  from?: string;
  to?: string;
  vin?: string;
  pledgor?: string;
  registrationNumber?: string;
  lapsing?: boolean;
  packageId?: string;
};

export const getPledgeEvents = (query: PledgeEventsFilter): Promise<PledgeEventsResponse> =>
  api.get<PledgeEventsResponse>(API.pledgeEvents, {
    query: { ...query, lapsing: query.lapsing || undefined },
  });

export const pledgeEventsQueryOptions = (query: PledgeEventsFilter) =>
  queryOptions({ queryKey: queryKeys.pledges.events(query), queryFn: () => getPledgeEvents(query) });

export const usePledgeEvents = (query: PledgeEventsFilter) =>
  useQuery({ ...pledgeEventsQueryOptions(query), placeholderData: keepPreviousData });
