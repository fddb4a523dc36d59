import { API, type CacheInvalidateBody, type CacheInvalidateResponse } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

export const invalidateCache = (body: CacheInvalidateBody): Promise<CacheInvalidateResponse> =>
  api.post<CacheInvalidateResponse>(API.cacheInvalidate, body);

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
