import { type ApiKey, apiKeyEndpoints } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

export const revokeApiKey = (id: string): Promise<ApiKey> =>
  callEndpoint(apiKeyEndpoints.revoke, { params: { id } });

export const useRevokeApiKey = (config?: MutationConfig<typeof revokeApiKey>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: revokeApiKey,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.apiKeys.all });
      await config?.onSuccess?.(...args);
    },
  });
};
