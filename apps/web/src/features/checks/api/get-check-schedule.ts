import { type CheckSchedule, checkEndpoints } from '@pledgewatch/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const getCheckSchedule = (): Promise<CheckSchedule> => callEndpoint(checkEndpoints.schedule);

export const checkScheduleQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.checks.schedule, queryFn: getCheckSchedule });

export const useCheckSchedule = () => useQuery(checkScheduleQueryOptions());
