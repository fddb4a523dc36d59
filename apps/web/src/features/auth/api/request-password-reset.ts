import { API, type MessageResponse, type ResetPasswordBody } from '@pledgewatch/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MutationConfig } from '@/lib/react-query';

export const requestPasswordReset = (body: ResetPasswordBody): Promise<MessageResponse> =>
  api.post<MessageResponse>(API.resetPassword, body);

export const useRequestPasswordReset = (config?: MutationConfig<typeof requestPasswordReset>) =>
  useMutation({ ...config, mutationFn: requestPasswordReset });
