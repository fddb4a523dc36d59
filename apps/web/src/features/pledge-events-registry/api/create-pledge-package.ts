import {
  type CreatePledgePackageBody,
  type PledgePackageDetail,
  pledgeEndpoints,
} from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

export const createPledgePackage = (body: CreatePledgePackageBody): Promise<PledgePackageDetail> =>
  callEndpoint(pledgeEndpoints.createPackage, { body });

export const useCreatePledgePackage = (config?: MutationConfig<typeof createPledgePackage>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: createPledgePackage,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.pledges.all });
      await config?.onSuccess?.(...args);
    },
  });
};
