import { API, type MarkNewsReadBody, type MarkNewsReadResponse } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';
import { unreadNewsCountQueryOptions } from './get-unread-news-count';

export const markNewsRead = (body: MarkNewsReadBody): Promise<MarkNewsReadResponse> =>
  api.post<MarkNewsReadResponse>(API.newsRead, body);

export const useMarkNewsRead = (config?: MutationConfig<typeof markNewsRead>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: markNewsRead,
    onSuccess: async (...args) => {
      // The answer carries the new count, so the badge updates without another request.
      queryClient.setQueryData(unreadNewsCountQueryOptions().queryKey, { count: args[0].unreadCount });
      await queryClient.invalidateQueries({ queryKey: queryKeys.news.lists });
      await config?.onSuccess?.(...args);
    },
  });
};
