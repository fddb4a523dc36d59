import { checkEndpoints, type MarkEventsReadBody } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

export const markEventsRead = (body: MarkEventsReadBody): Promise<{ updated: number }> =>
  callEndpoint(checkEndpoints.markEventsRead, { body });

export const useMarkEventsRead = (config?: MutationConfig<typeof markEventsRead>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: markEventsRead,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.events.all });
      await config?.onSuccess?.(...args);
    },
  });
};
