import { API } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { profileQueryOptions } from './get-profile';

export const deleteSession = (id: string): Promise<unknown> => api.delete<unknown>(API.session(id));

export const useDeleteSession = (config?: MutationConfig<typeof deleteSession>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: deleteSession,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: profileQueryOptions().queryKey });
      await config?.onSuccess?.(...args);
    },
  });
};
