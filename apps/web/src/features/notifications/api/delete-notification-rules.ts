import { API, type DeleteNotificationRulesBody } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

/** DELETE with the ids in its body, as the seed sends it. */
export const deleteNotificationRules = (body: DeleteNotificationRulesBody): Promise<{ deleted: number }> =>
  api.delete<{ deleted: number }>(API.notificationSettings, body);

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
