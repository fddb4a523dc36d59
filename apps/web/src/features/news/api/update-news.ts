import { type NewsItem, newsEndpoints, type UpdateNewsBody } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

export type UpdateNewsInput = { id: string; data: UpdateNewsBody };

export const updateNews = ({ id, data }: UpdateNewsInput): Promise<NewsItem> =>
  callEndpoint(newsEndpoints.update, { params: { id }, body: data });

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
