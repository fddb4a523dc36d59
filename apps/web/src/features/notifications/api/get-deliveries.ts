import {
  type DeliveriesResponse,
  type DeliveryStatus,
  type EndpointQuery,
  notificationEndpoints,
  type WithRequired,
} from '@pledgewatch/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export type DeliveriesQuery = WithRequired<
  EndpointQuery<typeof notificationEndpoints.deliveries>,
  'page' | 'pageSize'
>;

const UNFINISHED: readonly DeliveryStatus[] = ['queued', 'sending', 'retrying'];
const POLL_MS = 4000;

export const getDeliveries = (query: DeliveriesQuery): Promise<DeliveriesResponse> =>
  callEndpoint(notificationEndpoints.deliveries, { query });

export const deliveriesQueryOptions = (query: DeliveriesQuery) =>
  queryOptions({
    queryKey: queryKeys.notifications.deliveryList(query),
    queryFn: () => getDeliveries(query),
  });

export const useDeliveries = (query: DeliveriesQuery) =>
  useQuery({
    ...deliveriesQueryOptions(query),
    placeholderData: keepPreviousData,
    // While something on the page is still on its way, follow it until it is sent or failed.
    refetchInterval: (current) =>
      current.state.data?.items.some((delivery) => UNFINISHED.includes(delivery.status)) ? POLL_MS : false,
  });
