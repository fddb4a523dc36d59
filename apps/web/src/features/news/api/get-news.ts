import { type NewsPage, newsEndpoints } from '@pledgewatch/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export type NewsListQuery = { page: number; pageSize: number };

export const getNews = (query: NewsListQuery): Promise<NewsPage> =>
  callEndpoint(newsEndpoints.list, { query });

export const newsQueryOptions = (query: NewsListQuery) =>
  queryOptions({
    queryKey: queryKeys.news.list(query),
    queryFn: () => getNews(query),
  });

export const useNews = (query: NewsListQuery) =>
  useQuery({ ...newsQueryOptions(query), placeholderData: keepPreviousData });
