import { API, type Upload } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

export type UploadDecision = { id: string; decision: 'confirm' | 'cancel' };

/** Confirms (the import runs) or cancels a validated upload of pledge events. */
export const decidePledgeUpload = ({ id, decision }: UploadDecision): Promise<Upload> =>
  api.post<Upload>(decision === 'confirm' ? API.uploadConfirm(id) : API.uploadCancel(id));

export const useDecidePledgeUpload = (config?: MutationConfig<typeof decidePledgeUpload>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: decidePledgeUpload,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.uploads.all });
      await queryClient.invalidateQueries({ queryKey: queryKeys.pledges.all });
      await config?.onSuccess?.(...args);
    },
  });
};
