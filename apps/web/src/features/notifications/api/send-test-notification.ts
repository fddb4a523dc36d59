import { notificationEndpoints, type TestNotificationResponse } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

export const sendTestNotification = (ruleId: string): Promise<TestNotificationResponse> =>
  callEndpoint(notificationEndpoints.testRule, { params: { id: ruleId } });

export const useSendTestNotification = (config?: MutationConfig<typeof sendTestNotification>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: sendTestNotification,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.notifications.deliveries });
      await config?.onSuccess?.(...args);
    },
  });
};
