import { type DeleteNotificationRulesBody, notificationEndpoints } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

/** DELETE with the ids in its body, as the seed sends it. */
export const deleteNotificationRules = (body: DeleteNotificationRulesBody): Promise<{ deleted: number }> =>
  callEndpoint(notificationEndpoints.deleteRules, { body });

export const useDeleteNotificationRules = (config?: MutationConfig<typeof deleteNotificationRules>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: deleteNotificationRules,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.notifications.all });
      await config?.onSuccess?.(...args);
    },
  });
};
