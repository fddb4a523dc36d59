import { type PledgePackageDetail, pledgeEndpoints } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

export const addPackageEvents = ({
  packageId,
  eventIds,
}: {
  packageId: string;
  eventIds: string[];
}): Promise<PledgePackageDetail> =>
  callEndpoint(pledgeEndpoints.addPackageEvents, { params: { id: packageId }, body: { eventIds } });

export const useAddPackageEvents = (config?: MutationConfig<typeof addPackageEvents>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: addPackageEvents,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.pledges.all });
      await config?.onSuccess?.(...args);
    },
  });
};
