import { pledgeEndpoints, type Upload } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

export type UploadPledgeEventsInput = {
  file: File;
  /** Share of the file sent, 0–100. */
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
};

/** The seed's call: the file goes as multipart (field `file`) and becomes an upload of pledge events. */
export const uploadPledgeEvents = ({
  file,
  onProgress,
  signal,
}: UploadPledgeEventsInput): Promise<Upload> => {
  const form = new FormData();
  form.append('file', file, file.name);
  return callEndpoint(pledgeEndpoints.uploadEvents, {
    body: form,
    signal,
    onProgress: (loaded, total) => onProgress?.(total > 0 ? Math.round((loaded / total) * 100) : 0),
  });
};

export const useUploadPledgeEvents = (config?: MutationConfig<typeof uploadPledgeEvents>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: uploadPledgeEvents,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.uploads.lists });
      await config?.onSuccess?.(...args);
    },
  });
};
