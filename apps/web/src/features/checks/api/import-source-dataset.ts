import { checkEndpoints, type SourceImport, type SourceType } from '@pledgewatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MutationConfig } from '@/lib/react-query';

export type ImportSourceDatasetInput = {
  type: SourceType;
  file: File;
  onProgress?: (loaded: number, total: number) => void;
};

/** Uploads a dataset file (CSV, XLSX or JSON) as a new version of a source; staff only. */
export function importSourceDataset({
  type,
  file,
  onProgress,
}: ImportSourceDatasetInput): Promise<SourceImport> {
  const form = new FormData();
  form.append('file', file);
  // Every file is received to disk and imported in the background (202); the MVD list has its own call.
  return type === 'passport'
    ? callEndpoint(checkEndpoints.importPassportList, { body: form, onProgress })
    : callEndpoint(checkEndpoints.importSource, { params: { type }, body: form, onProgress });
}

export const useImportSourceDataset = (config?: MutationConfig<typeof importSourceDataset>) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: importSourceDataset,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.checks.sources });
      await config?.onSuccess?.(...args);
    },
  });
};
