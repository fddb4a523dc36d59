import { type AdditionalMethodsResponse, notificationEndpoints } from '@pledgewatch/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const getAdditionalMethods = (): Promise<AdditionalMethodsResponse> =>
  callEndpoint(notificationEndpoints.additionalMethods);

export const additionalMethodsQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.notifications.additionalMethods,
    queryFn: getAdditionalMethods,
    // The list changes only with a new release.
    staleTime: Number.POSITIVE_INFINITY,
  });

export const useAdditionalMethods = () => useQuery(additionalMethodsQueryOptions());
