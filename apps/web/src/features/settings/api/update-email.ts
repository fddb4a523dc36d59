import type { UpdateEmailBody } from '@pledgewatch/contract';
import { userEndpoints } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { profileQueryOptions } from './get-profile';

export const updateEmail = (body: UpdateEmailBody): Promise<unknown> =>
  callEndpoint(userEndpoints.updateEmail, { body });

export const useUpdateEmail = (config?: MutationConfig<typeof updateEmail>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: updateEmail,
    onSuccess: async (...args) => {
      // The new address stays pending (profile.pendingEmail) until confirmed from the letter.
      await queryClient.invalidateQueries({ queryKey: profileQueryOptions().queryKey });
      await config?.onSuccess?.(...args);
    },
  });
};
