import { API, type PledgePackagesResponse } from '@pledgewatch/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export type PledgePackagesFilter = { page: number; pageSize: number; status?: string };

export const getPledgePackages = (query: PledgePackagesFilter): Promise<PledgePackagesResponse> =>
  api.get<PledgePackagesResponse>(API.pledgePackages, { query });

export const pledgePackagesQueryOptions = (query: PledgePackagesFilter) =>
  queryOptions({ queryKey: queryKeys.pledges.packages(query), queryFn: () => getPledgePackages(query) });

export const usePledgePackages = (query: PledgePackagesFilter) =>
  useQuery({ ...pledgePackagesQueryOptions(query), placeholderData: keepPreviousData });
