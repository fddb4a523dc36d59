import { type EndpointQuery, type PledgePackagesResponse, pledgeEndpoints } from '@pledgewatch/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export type PledgePackagesFilter = EndpointQuery<typeof pledgeEndpoints.packages>;

export const getPledgePackages = (query: PledgePackagesFilter): Promise<PledgePackagesResponse> =>
  callEndpoint(pledgeEndpoints.packages, { query });

export const pledgePackagesQueryOptions = (query: PledgePackagesFilter) =>
  queryOptions({ queryKey: queryKeys.pledges.packages(query), queryFn: () => getPledgePackages(query) });

export const usePledgePackages = (query: PledgePackagesFilter) =>
  useQuery({ ...pledgePackagesQueryOptions(query), placeholderData: keepPreviousData });
