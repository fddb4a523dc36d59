import { monitoringEndpoints, type StatisticsBody, type StatisticsResponse } from '@pledgewatch/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const getStatistics = (body: StatisticsBody): Promise<StatisticsResponse> =>
  callEndpoint(monitoringEndpoints.statistics, { body });

export const statisticsQueryOptions = (body: StatisticsBody) =>
  queryOptions({
    queryKey: queryKeys.statistics.report(body),
    queryFn: () => getStatistics(body),
  });

export const useStatistics = (body: StatisticsBody) =>
  useQuery({ ...statisticsQueryOptions(body), placeholderData: keepPreviousData });
