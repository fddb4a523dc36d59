import { API, type CheckSchedule } from '@pledgewatch/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const getCheckSchedule = (): Promise<CheckSchedule> => api.get<CheckSchedule>(API.checkSchedule);

export const checkScheduleQueryOptions = () =>
  queryOptions({ queryKey: ['check-schedule'], queryFn: getCheckSchedule });

export const useCheckSchedule = () => useQuery(checkScheduleQueryOptions());
