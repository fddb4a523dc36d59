import type { ChangePasswordBody, MessageResponse } from '@pledgewatch/contract';
import { userEndpoints } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { profileQueryOptions } from './get-profile';

export const changePassword = (body: ChangePasswordBody): Promise<MessageResponse> =>
  callEndpoint(userEndpoints.changePassword, { body });

export const useChangePassword = (config?: MutationConfig<typeof changePassword>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: changePassword,
    onSuccess: async (...args) => {
      // The server may end other sessions on a password change; the sessions tab must show that.
      await queryClient.invalidateQueries({ queryKey: profileQueryOptions().queryKey });
      await config?.onSuccess?.(...args);
    },
  });
};
