import {
  type EndpointQuery,
  type EndpointResponse,
  platformEndpoints,
  type WithRequired,
} from '@pledgewatch/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export type OutboxQuery = WithRequired<EndpointQuery<typeof platformEndpoints.outbox>, 'page' | 'pageSize'>;
export type OutboxPage = EndpointResponse<typeof platformEndpoints.outbox>;

export const getOutbox = (query: OutboxQuery): Promise<OutboxPage> =>
  callEndpoint(platformEndpoints.outbox, { query });

export const outboxQueryOptions = (query: OutboxQuery) =>
  queryOptions({
    queryKey: queryKeys.outbox.list(query),
    queryFn: () => getOutbox(query),
    // New mails arrive in the background (queued jobs); keep the list fresh while it is open.
    refetchInterval: 10_000,
  });

export const useOutbox = (query: OutboxQuery) =>
  useQuery({ ...outboxQueryOptions(query), placeholderData: keepPreviousData });
