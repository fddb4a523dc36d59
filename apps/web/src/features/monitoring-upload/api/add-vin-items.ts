import { type AddItemsResponse, type FormVinBody, monitoringEndpoints } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

export const addVinItems = (body: FormVinBody): Promise<AddItemsResponse> =>
  callEndpoint(monitoringEndpoints.addVins, { body });

export const useAddVinItems = (config?: MutationConfig<typeof addVinItems>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: addVinItems,
    onSuccess: async (...args) => {
      // The portfolio screen caches its pages under this key.
      await queryClient.invalidateQueries({ queryKey: queryKeys.monitoringItems.all });
      await config?.onSuccess?.(...args);
    },
  });
};
