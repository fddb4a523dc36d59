import type { MessageResponse, ResetPasswordConfirmBody } from '@pledgewatch/contract';
import { userEndpoints } from '@pledgewatch/contract/endpoints/user';
import { useMutation } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';

export const confirmPasswordReset = (body: ResetPasswordConfirmBody): Promise<MessageResponse> =>
  callEndpoint(userEndpoints.resetPasswordConfirm, { body });

export const useConfirmPasswordReset = (config?: MutationConfig<typeof confirmPasswordReset>) =>
  useMutation({ ...config, mutationFn: confirmPasswordReset });
