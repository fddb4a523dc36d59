import { API, type UploadDetail } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

export const confirmUpload = (id: string): Promise<UploadDetail> =>
  api.post<UploadDetail>(API.uploadConfirm(id));

export const useConfirmUpload = (config?: MutationConfig<typeof confirmUpload>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: confirmUpload,
    onSuccess: async (...args) => {
      queryClient.setQueryData(queryKeys.uploads.detail(args[0].id), args[0]);
      await queryClient.invalidateQueries({ queryKey: queryKeys.uploads.all });
      await config?.onSuccess?.(...args);
    },
  });
};
