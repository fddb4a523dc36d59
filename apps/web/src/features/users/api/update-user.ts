import { type Member, memberEndpoints, type UpdateMemberBody } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

export type UpdateUserInput = { id: string; data: UpdateMemberBody };

export const updateUser = ({ id, data }: UpdateUserInput): Promise<Member> =>
  callEndpoint(memberEndpoints.update, { params: { id }, body: data });

export const useUpdateUser = (config?: MutationConfig<typeof updateUser>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: updateUser,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.users.all });
      await config?.onSuccess?.(...args);
    },
  });
};
