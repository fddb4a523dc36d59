import { API, type CheckRun } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

/** Starts a regular check of every active item of the organisation now. */
export const startCheckRun = (): Promise<CheckRun> => api.post<CheckRun>(API.checkRuns);

export const useStartCheckRun = (config?: MutationConfig<typeof startCheckRun>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: startCheckRun,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.checks.runs });
      await config?.onSuccess?.(...args);
    },
  });
};
