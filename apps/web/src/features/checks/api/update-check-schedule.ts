import { type CheckSchedule, checkEndpoints, type UpdateCheckScheduleBody } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { checkScheduleQueryOptions } from './get-check-schedule';

export const updateCheckSchedule = (body: UpdateCheckScheduleBody): Promise<CheckSchedule> =>
  callEndpoint(checkEndpoints.updateSchedule, { body });

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
