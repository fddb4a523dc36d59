import {
  type NotificationRule,
  notificationEndpoints,
  type UpdateNotificationRuleBody,
} from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

/** The seed's PATCH carries the rule id in the body; only the fields sent change. */
export const updateNotificationRule = (body: UpdateNotificationRuleBody): Promise<NotificationRule> =>
  callEndpoint(notificationEndpoints.updateRule, { body });

export const useUpdateNotificationRule = (config?: MutationConfig<typeof updateNotificationRule>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: updateNotificationRule,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.notifications.rules });
      await config?.onSuccess?.(...args);
    },
  });
};
