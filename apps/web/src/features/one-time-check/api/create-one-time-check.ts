import { checkEndpoints, type OneTimeCheck, type OneTimeCheckBody } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';
import { oneTimeCheckQueryOptions } from './get-one-time-check';

/** Runs every source that answers the identifier's kind, now; the answer already holds the findings. */
export const createOneTimeCheck = (body: OneTimeCheckBody): Promise<OneTimeCheck> =>
  callEndpoint(checkEndpoints.oneTimeCheck, { body });

export const useCreateOneTimeCheck = (config?: MutationConfig<typeof createOneTimeCheck>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: createOneTimeCheck,
    onSuccess: async (...args) => {
      const [check] = args;
      // The results screen opens from the cache instead of asking again.
      queryClient.setQueryData(oneTimeCheckQueryOptions(check.id).queryKey, check);
      await queryClient.invalidateQueries({ queryKey: queryKeys.oneTimeChecks.lists });
      await config?.onSuccess?.(...args);
    },
  });
};
