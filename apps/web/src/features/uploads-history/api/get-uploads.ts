import {
  type EndpointQuery,
  type UploadStatus,
  type UploadsResponse,
  uploadEndpoints,
  type WithRequired,
} from '@pledgewatch/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { UPLOAD_POLL_MS } from '@/config/constants';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export type UploadsListQuery = WithRequired<EndpointQuery<typeof uploadEndpoints.list>, 'page' | 'pageSize'>;

/** Statuses that change on their own; `validated` waits for a person, so it is not polled. */
const MOVING: readonly UploadStatus[] = ['received', 'validating', 'importing'];

export const getUploads = (query: UploadsListQuery): Promise<UploadsResponse> =>
  callEndpoint(uploadEndpoints.list, { query });

export const uploadsQueryOptions = (query: UploadsListQuery) =>
  queryOptions({
    queryKey: queryKeys.uploads.list(query),
    queryFn: () => getUploads(query),
    refetchInterval: (current) =>
      current.state.data?.items.some((upload) => MOVING.includes(upload.status)) ? UPLOAD_POLL_MS : false,
  });

export const useUploads = (query: UploadsListQuery) =>
  useQuery({ ...uploadsQueryOptions(query), placeholderData: keepPreviousData });
