import { type CheckRun, checkEndpoints } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

/** Starts a regular check of every active item of the organisation now. */
export const startCheckRun = (): Promise<CheckRun> => callEndpoint(checkEndpoints.startRun);

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
