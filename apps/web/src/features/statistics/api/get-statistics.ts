import { API, type StatisticsBody, type StatisticsResponse } from '@pledgewatch/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const getStatistics = (body: StatisticsBody): Promise<StatisticsResponse> =>
  api.post<StatisticsResponse>(API.statistics, body);

export const statisticsQueryOptions = (body: StatisticsBody) =>
  queryOptions({
    queryKey: ['statistics', body],
    queryFn: () => getStatistics(body),
  });

export const useStatistics = (body: StatisticsBody) =>
  useQuery({ ...statisticsQueryOptions(body), placeholderData: keepPreviousData });
