import type { MessageResponse, ResetPasswordConfirmBody } from '@pledgewatch/contract';
import { useMutation } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';
import { signedOutEndpoints } from '@/lib/signed-out-endpoints';

export const confirmPasswordReset = (body: ResetPasswordConfirmBody): Promise<MessageResponse> =>
  callEndpoint(signedOutEndpoints.resetPasswordConfirm, { body });

export const useConfirmPasswordReset = (config?: MutationConfig<typeof confirmPasswordReset>) =>
  useMutation({ ...config, mutationFn: confirmPasswordReset });
