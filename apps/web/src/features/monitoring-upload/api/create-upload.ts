import { type Upload, uploadEndpoints } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

export type CreateUploadInput = {
  file: File;
  /** Share of the file sent, 0–100. */
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
};

/** Sends the file as multipart form data (field `file`); the server answers with the new upload. */
export const createUpload = ({ file, onProgress, signal }: CreateUploadInput): Promise<Upload> => {
  const form = new FormData();
  form.append('file', file, file.name);
  return callEndpoint(uploadEndpoints.create, {
    body: form,
    query: { kind: 'items', autoConfirm: false },
    signal,
    onProgress: (loaded, total) => onProgress?.(total > 0 ? Math.round((loaded / total) * 100) : 0),
  });
};

export const useCreateUpload = (config?: MutationConfig<typeof createUpload>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: createUpload,
    onSuccess: async (...args) => {
      // The answer is the upload without its detail: a file waiting at the mapping step needs the
      // detail (its columns), which is not polled, so it is fetched rather than seeded.
      if (args[0].status !== 'needs_mapping') {
        queryClient.setQueryData(queryKeys.uploads.detail(args[0].id), args[0]);
      }
      await queryClient.invalidateQueries({ queryKey: queryKeys.uploads.lists });
      await config?.onSuccess?.(...args);
    },
  });
};
