import {
  UPLOAD_FINAL_STATUSES,
  UPLOAD_WAITING_STATUSES,
  type UploadDetail,
  uploadEndpoints,
} from '@pledgewatch/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { UPLOAD_POLL_MS } from '@/config/constants';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const getUpload = (id: string): Promise<UploadDetail> =>
  callEndpoint(uploadEndpoints.detail, { params: { id } });

/** Still moving on the server: the preview and the mapping step wait for the user, so are not polled. */
const isMoving = (upload: UploadDetail | undefined) =>
  upload !== undefined &&
  !UPLOAD_WAITING_STATUSES.includes(upload.status) &&
  !UPLOAD_FINAL_STATUSES.includes(upload.status);

export const uploadQueryOptions = (id: string) =>
  queryOptions({
    queryKey: queryKeys.uploads.detail(id),
    queryFn: () => getUpload(id),
    staleTime: 0,
    refetchInterval: (query) => (isMoving(query.state.data) ? UPLOAD_POLL_MS : false),
    // Progress should keep moving even while the user looks at another tab.
    refetchIntervalInBackground: true,
  });

export const useUpload = (id: string | null) =>
  useQuery({ ...uploadQueryOptions(id ?? ''), enabled: Boolean(id) });
