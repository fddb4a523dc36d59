import { checkEndpoints, type Source } from '@pledgewatch/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const getSources = (): Promise<{ items: Source[] }> => callEndpoint(checkEndpoints.sources);

export const sourcesQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.checks.sources, queryFn: getSources });

export const useSources = () => useQuery(sourcesQueryOptions());
