import { type EndpointQuery, type PledgePackagesResponse, pledgeEndpoints } from '@pledgewatch/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { SHARED_WORK_STALE_MS } from './shared-work';

export type PledgePackagesFilter = EndpointQuery<typeof pledgeEndpoints.packages>;

export const getPledgePackages = (query: PledgePackagesFilter): Promise<PledgePackagesResponse> =>
  callEndpoint(pledgeEndpoints.packages, { query });

export const pledgePackagesQueryOptions = (query: PledgePackagesFilter) =>
  queryOptions({
    queryKey: queryKeys.pledges.packages(query),
    staleTime: SHARED_WORK_STALE_MS,
    queryFn: () => getPledgePackages(query),
  });

export const usePledgePackages = (query: PledgePackagesFilter) =>
  useQuery({ ...pledgePackagesQueryOptions(query), placeholderData: keepPreviousData });
