import { type Upload, type UploadMappingBody, uploadEndpoints } from '@pledgewatch/contract';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { type MutationConfig, useInvalidatingMutation } from '@/lib/react-query';

// Both upload kinds (portfolio, pledge events) share these calls and the detail's query key, so
// the shared flow owns them rather than each feature.

export type UploadMappingInput = { id: string; columns: UploadMappingBody['columns'] };

export const mapUploadColumns = ({ id, columns }: UploadMappingInput): Promise<Upload> =>
  callEndpoint(uploadEndpoints.mapping, { params: { id }, body: { columns } });

export const selectUploadSheet = ({ id, sheet }: { id: string; sheet: number }): Promise<Upload> =>
  callEndpoint(uploadEndpoints.sheet, { params: { id }, body: { sheet } });

/** After either call the upload is checked again: its detail is fetched anew and polled. */
const useRecheck = <Input>(
  mutationFn: (input: Input) => Promise<Upload>,
  config?: MutationConfig<typeof mutationFn>,
) => useInvalidatingMutation(mutationFn, queryKeys.uploads.all, config);

export const useMapUploadColumns = (config?: MutationConfig<typeof mapUploadColumns>) =>
  useRecheck(mapUploadColumns, config);

export const useSelectUploadSheet = (config?: MutationConfig<typeof selectUploadSheet>) =>
  useRecheck(selectUploadSheet, config);
