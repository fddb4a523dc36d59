import { type AddItemsResponse, API, type FormVinBody } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

export const addVinItems = (body: FormVinBody): Promise<AddItemsResponse> =>
  api.post<AddItemsResponse>(API.monitoringFormVin, body);

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
