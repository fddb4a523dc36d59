import { API } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { profileQueryOptions } from './get-profile';

/** Ends every session of the user except the one making the call. */
export const deleteOtherSessions = (): Promise<unknown> => api.delete<unknown>(API.sessions);

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
