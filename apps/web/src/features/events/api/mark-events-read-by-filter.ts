import { checkEndpoints, type MarkEventsReadByFilterBody } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

/** Every event the list's filter matches: the filter is sent, not the ids. */
export const markEventsReadByFilter = (body: MarkEventsReadByFilterBody): Promise<{ updated: number }> =>
  callEndpoint(checkEndpoints.markEventsReadByFilter, { body });

export const useMarkEventsReadByFilter = (config?: MutationConfig<typeof markEventsReadByFilter>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: markEventsReadByFilter,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.events.all });
      await config?.onSuccess?.(...args);
    },
  });
};
