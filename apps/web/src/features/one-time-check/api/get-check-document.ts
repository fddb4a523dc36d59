import { checkEndpoints, type OneTimeCheckDocument } from '@pledgewatch/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** The seed's call is a POST, but it only reads: it is cached like any query. */
export const getCheckDocument = (id: string): Promise<OneTimeCheckDocument> =>
  callEndpoint(checkEndpoints.oneTimeCheckDocument, { body: { id } });

export const checkDocumentQueryOptions = (id: string) =>
  queryOptions({
    queryKey: queryKeys.oneTimeChecks.document(id),
    queryFn: () => getCheckDocument(id),
    staleTime: Number.POSITIVE_INFINITY,
  });

export const useCheckDocument = (id: string) => useQuery(checkDocumentQueryOptions(id));
