import { type CreateNewsBody, type NewsItem, newsEndpoints } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

export const createNews = (body: CreateNewsBody): Promise<NewsItem> =>
  callEndpoint(newsEndpoints.create, { body });

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
