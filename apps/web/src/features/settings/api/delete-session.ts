import { userEndpoints } from '@pledgewatch/contract';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { profileQueryOptions } from './get-profile';

export const deleteSession = (id: string): Promise<unknown> =>
  callEndpoint(userEndpoints.endSession, { params: { id } });

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
