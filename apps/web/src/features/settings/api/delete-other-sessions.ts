import { userEndpoints } from '@pledgewatch/contract';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { profileQueryOptions } from './get-profile';

/** Ends every session of the user except the one making the call. */
export const deleteOtherSessions = (): Promise<unknown> => callEndpoint(userEndpoints.endOtherSessions);

export const useDeleteOtherSessions = (config?: MutationConfig<typeof deleteOtherSessions>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: deleteOtherSessions,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: profileQueryOptions().queryKey });
      await config?.onSuccess?.(...args);
    },
  });
};
