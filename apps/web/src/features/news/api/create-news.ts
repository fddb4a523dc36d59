import { API, type CreateNewsBody, type NewsItem } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

export const createNews = (body: CreateNewsBody): Promise<NewsItem> => api.post<NewsItem>(API.news, body);

export const useCreateNews = (config?: MutationConfig<typeof createNews>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: createNews,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.news.all });
      await config?.onSuccess?.(...args);
    },
  });
};
