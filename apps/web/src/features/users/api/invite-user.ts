import { type InviteUserBody, type MessageResponse, memberEndpoints } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

/** The answer is the same whether or not the address has an account elsewhere (no enumeration). */
export const inviteUser = (body: InviteUserBody): Promise<MessageResponse> =>
  callEndpoint(memberEndpoints.invite, { body });

export const useInviteUser = (config?: MutationConfig<typeof inviteUser>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: inviteUser,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.users.all });
      await config?.onSuccess?.(...args);
    },
  });
};
