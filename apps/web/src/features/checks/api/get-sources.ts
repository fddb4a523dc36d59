import { checkEndpoints, type Source } from '@pledgewatch/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const getSources = (): Promise<{ items: Source[] }> => callEndpoint(checkEndpoints.sources);

/** While a version is being imported the list is asked again every 2 s, for its progress. */
export const sourcesQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.checks.sources,
    queryFn: getSources,
    refetchInterval: (query) =>
      query.state.data?.items.some((source) => source.importing !== null) ? 2000 : false,
  });

export const useSources = () => useQuery(sourcesQueryOptions());
