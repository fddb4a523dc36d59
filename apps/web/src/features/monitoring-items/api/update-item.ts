import { type MonitoringItem, monitoringEndpoints, type UpdateItemBody } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

export type UpdateItemInput = { id: string; data: UpdateItemBody };

export const updateItem = ({ id, data }: UpdateItemInput): Promise<MonitoringItem> =>
  callEndpoint(monitoringEndpoints.updateItem, { params: { id }, body: data });

export const useUpdateItem = (config?: MutationConfig<typeof updateItem>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: updateItem,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.monitoringItems.all });
      await config?.onSuccess?.(...args);
    },
  });
};
