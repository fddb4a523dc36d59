import { type BulkStatusBody, type BulkStatusResponse, monitoringEndpoints } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

export const updateItemsStatus = (body: BulkStatusBody): Promise<BulkStatusResponse> =>
  callEndpoint(monitoringEndpoints.bulkStatus, { body });

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
