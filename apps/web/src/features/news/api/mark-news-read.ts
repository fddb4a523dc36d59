import { type MarkNewsReadBody, type MarkNewsReadResponse, newsEndpoints } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';
import { unreadNewsCountQueryOptions } from './get-unread-news-count';

export const markNewsRead = (body: MarkNewsReadBody): Promise<MarkNewsReadResponse> =>
  callEndpoint(newsEndpoints.markRead, { body });

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
