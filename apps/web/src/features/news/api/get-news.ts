import { API, type NewsPage } from '@pledgewatch/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type NewsListQuery = { page: number; pageSize: number };

export const NEWS_QUERY_KEY = ['news'] as const;

export const getNews = (query: NewsListQuery): Promise<NewsPage> => api.get<NewsPage>(API.news, { query });

export const newsQueryOptions = (query: NewsListQuery) =>
  queryOptions({
    queryKey: [...NEWS_QUERY_KEY, 'list', query],
    queryFn: () => getNews(query),
  });

export const useNews = (query: NewsListQuery) =>
  useQuery({ ...newsQueryOptions(query), placeholderData: keepPreviousData });
