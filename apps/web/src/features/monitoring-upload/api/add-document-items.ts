import { type AddItemsResponse, type FormDocBody, monitoringEndpoints } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

export const addDocumentItems = (body: FormDocBody): Promise<AddItemsResponse> =>
  callEndpoint(monitoringEndpoints.addDocuments, { body });

export const useAddDocumentItems = (config?: MutationConfig<typeof addDocumentItems>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: addDocumentItems,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.monitoringItems.all });
      await config?.onSuccess?.(...args);
    },
  });
};
