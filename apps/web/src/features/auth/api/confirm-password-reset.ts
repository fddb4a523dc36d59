import { API, type MessageResponse, type ResetPasswordConfirmBody } from '@pledgewatch/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';

export const confirmPasswordReset = (body: ResetPasswordConfirmBody): Promise<MessageResponse> =>
  api.post<MessageResponse>(API.resetPasswordConfirm, body);

export const useConfirmPasswordReset = (config?: MutationConfig<typeof confirmPasswordReset>) =>
  useMutation({ ...config, mutationFn: confirmPasswordReset });
