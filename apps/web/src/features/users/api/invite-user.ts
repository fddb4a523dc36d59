import { API, type InviteUserBody, type Member } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';

export const inviteUser = (body: InviteUserBody): Promise<Member> => api.post<Member>(API.members, body);

export const useInviteUser = (config?: MutationConfig<typeof inviteUser>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: inviteUser,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: ['users'] });
      await config?.onSuccess?.(...args);
    },
  });
};
