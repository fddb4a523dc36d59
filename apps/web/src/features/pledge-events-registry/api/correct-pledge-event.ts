import {
  type CreatePledgeEventResponse,
  type PledgeEventInput,
  pledgeEndpoints,
} from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

/** Corrects a notification in no package or rejected by the registry (PUT /pledges/events/{id}). */
export const correctPledgeEvent = ({
  eventId,
  event,
}: {
  eventId: string;
  event: PledgeEventInput;
}): Promise<CreatePledgeEventResponse> =>
  callEndpoint(pledgeEndpoints.correctEvent, { params: { id: eventId }, body: event });

export const useCorrectPledgeEvent = (config?: MutationConfig<typeof correctPledgeEvent>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: correctPledgeEvent,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.pledges.all });
      await config?.onSuccess?.(...args);
    },
  });
};
