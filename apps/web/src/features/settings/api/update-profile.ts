import type { UpdateProfileBody } from '@pledgewatch/contract';
import { userEndpoints } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { meQueryOptions } from '@/lib/auth';
import type { MutationConfig } from '@/lib/react-query';
import { profileQueryOptions } from './get-profile';

export const updateProfile = (body: UpdateProfileBody): Promise<unknown> =>
  callEndpoint(userEndpoints.updateProfile, { body });

export const useUpdateProfile = (config?: MutationConfig<typeof updateProfile>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: updateProfile,
    onSuccess: async (...args) => {
      // The name also shows in the app bar, which reads the current user.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: profileQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey }),
      ]);
      await config?.onSuccess?.(...args);
    },
  });
};
