import { pledgeEndpoints, type RegistrationNumbersResponse } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

/** The registry's answer (a ZIP or an XML of certificates and rejections) for a sent package. */
export const importRegistryResults = ({
  packageId,
  file,
}: {
  packageId: string;
  file: File;
}): Promise<RegistrationNumbersResponse> => {
  const form = new FormData();
  form.append('file', file, file.name);
  return callEndpoint(pledgeEndpoints.importRegistryResults, { params: { id: packageId }, body: form });
};

export const useImportRegistryResults = (config?: MutationConfig<typeof importRegistryResults>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: importRegistryResults,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.pledges.all });
      await config?.onSuccess?.(...args);
    },
  });
};
