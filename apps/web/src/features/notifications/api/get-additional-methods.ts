import { type AdditionalMethodsResponse, API } from '@pledgewatch/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const getAdditionalMethods = (): Promise<AdditionalMethodsResponse> =>
  api.get<AdditionalMethodsResponse>(API.notificationMethodsAdditional);

export const additionalMethodsQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.notifications.additionalMethods,
    queryFn: getAdditionalMethods,
    // The list changes only with a new release.
    staleTime: Number.POSITIVE_INFINITY,
  });

export const useAdditionalMethods = () => useQuery(additionalMethodsQueryOptions());
