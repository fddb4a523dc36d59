import { type CreatePledgeEventResponse, type PledgeEventData, pledgeEndpoints } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

export const createPledgeEvent = (event: PledgeEventData): Promise<CreatePledgeEventResponse> =>
  callEndpoint(pledgeEndpoints.createEvent, { body: event });

export const useCreatePledgeEvent = (config?: MutationConfig<typeof createPledgeEvent>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: createPledgeEvent,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.pledges.all });
      await config?.onSuccess?.(...args);
    },
  });
};
