import { type Upload, uploadEndpoints } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

export const cancelUpload = (id: string): Promise<Upload> =>
  callEndpoint(uploadEndpoints.cancel, { params: { id } });

export const useCancelUpload = (config?: MutationConfig<typeof cancelUpload>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: cancelUpload,
    onSuccess: async (...args) => {
      queryClient.setQueryData(queryKeys.uploads.detail(args[0].id), args[0]);
      await queryClient.invalidateQueries({ queryKey: queryKeys.uploads.all });
      await config?.onSuccess?.(...args);
    },
  });
};
