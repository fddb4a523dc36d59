import { API, type Source } from '@pledgewatch/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const getSources = (): Promise<{ items: Source[] }> => api.get<{ items: Source[] }>(API.sources);

export const sourcesQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.checks.sources, queryFn: getSources });

export const useSources = () => useQuery(sourcesQueryOptions());
