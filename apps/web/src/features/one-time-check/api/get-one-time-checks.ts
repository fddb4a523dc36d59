import {
  checkEndpoints,
  type EndpointQuery,
  type EndpointResponse,
  type WithRequired,
} from '@pledgewatch/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export type OneTimeChecksQuery = WithRequired<
  EndpointQuery<typeof checkEndpoints.oneTimeChecks>,
  'page' | 'pageSize'
>;

export type OneTimeChecksPage = EndpointResponse<typeof checkEndpoints.oneTimeChecks>;

export const getOneTimeChecks = (query: OneTimeChecksQuery): Promise<OneTimeChecksPage> =>
  callEndpoint(checkEndpoints.oneTimeChecks, { query });

export const oneTimeChecksQueryOptions = (query: OneTimeChecksQuery) =>
  queryOptions({
    queryKey: queryKeys.oneTimeChecks.list(query),
    queryFn: () => getOneTimeChecks(query),
  });

export const useOneTimeChecks = (query: OneTimeChecksQuery) =>
  useQuery({ ...oneTimeChecksQueryOptions(query), placeholderData: keepPreviousData });
