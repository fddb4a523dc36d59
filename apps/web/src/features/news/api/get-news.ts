import { type EndpointQuery, type NewsPage, newsEndpoints, type WithRequired } from '@pledgewatch/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export type NewsListQuery = WithRequired<EndpointQuery<typeof newsEndpoints.list>, 'page' | 'pageSize'>;

export const getNews = (query: NewsListQuery): Promise<NewsPage> =>
  callEndpoint(newsEndpoints.list, { query });

export const newsQueryOptions = (query: NewsListQuery) =>
  queryOptions({
    queryKey: queryKeys.news.list(query),
    queryFn: () => getNews(query),
  });

export const useNews = (query: NewsListQuery) =>
  useQuery({ ...newsQueryOptions(query), placeholderData: keepPreviousData });
