import { apiKeyEndpoints, type EndpointResponse } from '@pledgewatch/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export type ApiKeysAnswer = EndpointResponse<typeof apiKeyEndpoints.list>;

export const getApiKeys = (): Promise<ApiKeysAnswer> => callEndpoint(apiKeyEndpoints.list, {});

export const apiKeysQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.apiKeys.all, queryFn: getApiKeys });

export const useApiKeys = () => useQuery(apiKeysQueryOptions());
