import { API, type StatisticsBody, type StatisticsResponse } from '@pledgewatch/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const getStatistics = (body: StatisticsBody): Promise<StatisticsResponse> =>
  api.post<StatisticsResponse>(API.statistics, body);

export const statisticsQueryOptions = (body: StatisticsBody) =>
  queryOptions({
    queryKey: queryKeys.statistics.report(body),
    queryFn: () => getStatistics(body),
  });

export const useStatistics = (body: StatisticsBody) =>
  useQuery({ ...statisticsQueryOptions(body), placeholderData: keepPreviousData });
