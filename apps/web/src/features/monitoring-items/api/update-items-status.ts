import { API, type BulkStatusBody, type BulkStatusResponse } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

export const updateItemsStatus = (body: BulkStatusBody): Promise<BulkStatusResponse> =>
  api.post<BulkStatusResponse>(API.monitoringItemsBulkStatus, body);

export const useUpdateItemsStatus = (config?: MutationConfig<typeof updateItemsStatus>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: updateItemsStatus,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.monitoringItems.all });
      await config?.onSuccess?.(...args);
    },
  });
};
