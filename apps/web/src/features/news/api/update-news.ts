import { API, type NewsItem, type UpdateNewsBody } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

export type UpdateNewsInput = { id: string; data: UpdateNewsBody };

export const updateNews = ({ id, data }: UpdateNewsInput): Promise<NewsItem> =>
  api.patch<NewsItem>(API.newsItem(id), data);

export const useUpdateNews = (config?: MutationConfig<typeof updateNews>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: updateNews,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.news.all });
      await config?.onSuccess?.(...args);
    },
  });
};
