import { pledgeEndpoints, type RegistrationNumbersResponse } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

/** A filled-in XLSX export (or CSV) with the numbers the registry gave the package's notifications. */
export const importRegistrationNumbers = ({
  packageId,
  file,
}: {
  packageId: string;
  file: File;
}): Promise<RegistrationNumbersResponse> => {
  const form = new FormData();
  form.append('file', file, file.name);
  return callEndpoint(pledgeEndpoints.importRegistrationNumbers, { params: { id: packageId }, body: form });
};

export const useImportRegistrationNumbers = (config?: MutationConfig<typeof importRegistrationNumbers>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: importRegistrationNumbers,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.pledges.all });
      await config?.onSuccess?.(...args);
    },
  });
};
