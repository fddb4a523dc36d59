import type { MessageResponse, ResetPasswordBody } from '@pledgewatch/contract';
import { userEndpoints } from '@pledgewatch/contract/endpoints/user';
import { useMutation } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';

export const requestPasswordReset = (body: ResetPasswordBody): Promise<MessageResponse> =>
  callEndpoint(userEndpoints.resetPassword, { body });

export const useRequestPasswordReset = (config?: MutationConfig<typeof requestPasswordReset>) =>
  useMutation({ ...config, mutationFn: requestPasswordReset });
