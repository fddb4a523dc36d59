import { API, type CreatePledgePackageBody, type PledgePackageDetail } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

export const createPledgePackage = (body: CreatePledgePackageBody): Promise<PledgePackageDetail> =>
  api.post<PledgePackageDetail>(API.pledgePackages, body);

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
