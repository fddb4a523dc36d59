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

export const getPledgeUpload = (id: string): Promise<UploadDetail> =>
  callEndpoint(uploadEndpoints.detail, { params: { id } });

const isMoving = (upload: UploadDetail | undefined) =>
  upload !== undefined &&
  !UPLOAD_WAITING_STATUSES.includes(upload.status) &&
  !UPLOAD_FINAL_STATUSES.includes(upload.status);

export const pledgeUploadQueryOptions = (id: string) =>
  queryOptions({
    queryKey: queryKeys.uploads.detail(id),
    queryFn: () => getPledgeUpload(id),
    staleTime: 0,
    refetchInterval: (query) => (isMoving(query.state.data) ? UPLOAD_POLL_MS : false),
    refetchIntervalInBackground: true,
  });

export const usePledgeUpload = (id: string | null) =>
  useQuery({ ...pledgeUploadQueryOptions(id ?? ''), enabled: Boolean(id) });
