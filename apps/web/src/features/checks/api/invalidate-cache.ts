import {
  type CacheInvalidateBody,
  type CacheInvalidateResponse,
  checkEndpoints,
} from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

export const invalidateCache = (body: CacheInvalidateBody): Promise<CacheInvalidateResponse> =>
  callEndpoint(checkEndpoints.invalidateCache, { body });

export const useInvalidateCache = (config?: MutationConfig<typeof invalidateCache>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: invalidateCache,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.checks.sources });
      await config?.onSuccess?.(...args);
    },
  });
};
