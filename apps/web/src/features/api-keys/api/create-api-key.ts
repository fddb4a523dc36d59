import { apiKeyEndpoints, type CreateApiKeyBody, type CreatedApiKey } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

export const createApiKey = (body: CreateApiKeyBody): Promise<CreatedApiKey> =>
  callEndpoint(apiKeyEndpoints.create, { body });

export const useCreateApiKey = (config?: MutationConfig<typeof createApiKey>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: createApiKey,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.apiKeys.all });
      await config?.onSuccess?.(...args);
    },
  });
};
