import { type EndpointQuery, type SearchResponse, searchEndpoints } from '@pledgewatch/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export type SearchQuery = EndpointQuery<typeof searchEndpoints.search>;

export const getSearch = (query: SearchQuery): Promise<SearchResponse> =>
  callEndpoint(searchEndpoints.search, { query });

export const searchQueryOptions = (query: SearchQuery) =>
  queryOptions({
    queryKey: queryKeys.search.results(query),
    queryFn: () => getSearch(query),
    // What was found a moment ago is still right while the user types on.
    staleTime: 30_000,
  });

/** Only a query of enough letters or digits is sent (the server refuses a shorter one). */
export const useSearch = (query: SearchQuery, enabled: boolean) =>
  useQuery({ ...searchQueryOptions(query), enabled, placeholderData: keepPreviousData });
