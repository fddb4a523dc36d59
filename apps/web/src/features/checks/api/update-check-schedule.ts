import { API, type CheckSchedule, type UpdateCheckScheduleBody } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { checkScheduleQueryOptions } from './get-check-schedule';

export const updateCheckSchedule = (body: UpdateCheckScheduleBody): Promise<CheckSchedule> =>
  api.put<CheckSchedule>(API.checkSchedule, body);

export const useUpdateCheckSchedule = (config?: MutationConfig<typeof updateCheckSchedule>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: updateCheckSchedule,
    onSuccess: async (...args) => {
      queryClient.setQueryData(checkScheduleQueryOptions().queryKey, args[0]);
      await config?.onSuccess?.(...args);
    },
  });
};
