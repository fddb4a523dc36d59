import { type PackageAction, type PledgePackageDetail, pledgeEndpoints } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

export const transitionPledgePackage = ({
  packageId,
  action,
  comment,
}: {
  packageId: string;
  action: PackageAction;
  comment?: string;
}): Promise<PledgePackageDetail> =>
  callEndpoint(pledgeEndpoints.transitionPackage, { params: { id: packageId }, body: { action, comment } });

export const useTransitionPledgePackage = (config?: MutationConfig<typeof transitionPledgePackage>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: transitionPledgePackage,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.pledges.all });
      await config?.onSuccess?.(...args);
    },
  });
};
