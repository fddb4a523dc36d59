import type { MessageResponse, ResetPasswordBody } from '@pledgewatch/contract';
import { useMutation } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { signedOutEndpoints } from '@/lib/signed-out-endpoints';

export const requestPasswordReset = (body: ResetPasswordBody): Promise<MessageResponse> =>
  callEndpoint(signedOutEndpoints.resetPassword, { body });

export const useRequestPasswordReset = (config?: MutationConfig<typeof requestPasswordReset>) =>
  useMutation({ ...config, mutationFn: requestPasswordReset });
