import { type Upload, uploadEndpoints } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

export type UploadDecision = { id: string; decision: 'confirm' | 'cancel' };

/** Confirms (the import runs) or cancels a validated upload of pledge events. */
export const decidePledgeUpload = ({ id, decision }: UploadDecision): Promise<Upload> =>
  callEndpoint(decision === 'confirm' ? uploadEndpoints.confirm : uploadEndpoints.cancel, { params: { id } });

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
