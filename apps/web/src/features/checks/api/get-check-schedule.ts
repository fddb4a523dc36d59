import { API, type CheckSchedule } from '@pledgewatch/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const getCheckSchedule = (): Promise<CheckSchedule> => api.get<CheckSchedule>(API.checkSchedule);

export const checkScheduleQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.checks.schedule, queryFn: getCheckSchedule });

export const useCheckSchedule = () => useQuery(checkScheduleQueryOptions());
