import { API, type CreateNotificationRuleBody, type NotificationRule } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

export const createNotificationRule = (body: CreateNotificationRuleBody): Promise<NotificationRule> =>
  api.post<NotificationRule>(API.notificationSettings, body);

export const useCreateNotificationRule = (config?: MutationConfig<typeof createNotificationRule>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: createNotificationRule,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.notifications.rules });
      await config?.onSuccess?.(...args);
    },
  });
};
