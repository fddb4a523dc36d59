import {
  type CreateNotificationRuleBody,
  type NotificationRule,
  notificationEndpoints,
} from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

export const createNotificationRule = (body: CreateNotificationRuleBody): Promise<NotificationRule> =>
  callEndpoint(notificationEndpoints.createRule, { body });

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
