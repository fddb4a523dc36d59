import { type MessageResponse, newsEndpoints } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

export const deleteNews = (id: string): Promise<MessageResponse> =>
  callEndpoint(newsEndpoints.delete, { params: { id } });

export const useDeleteNews = (config?: MutationConfig<typeof deleteNews>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: deleteNews,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.news.all });
      await config?.onSuccess?.(...args);
    },
  });
};
