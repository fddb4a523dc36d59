import { API, type MessageResponse } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

export const deleteNews = (id: string): Promise<MessageResponse> =>
  api.delete<MessageResponse>(API.newsItem(id));

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
