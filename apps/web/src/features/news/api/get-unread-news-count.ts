import { type NewsUnreadCountResponse, newsEndpoints } from '@pledgewatch/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

const UNREAD_REFRESH_MS = 5 * 60_000;

export const getUnreadNewsCount = (): Promise<NewsUnreadCountResponse> =>
  callEndpoint(newsEndpoints.unreadCount);

export const unreadNewsCountQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.news.unreadCount,
    queryFn: getUnreadNewsCount,
    // The badge follows news published while the tab was in the background.
    refetchOnWindowFocus: true,
    refetchInterval: UNREAD_REFRESH_MS,
    staleTime: 60_000,
  });

export const useUnreadNewsCount = () => useQuery(unreadNewsCountQueryOptions()).data?.count ?? 0;
