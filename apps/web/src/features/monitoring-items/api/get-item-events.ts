import { checkEndpoints, type EventsResponse } from '@pledgewatch/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

const ITEM_EVENTS_PAGE_SIZE = 20;

/** The item's latest events. */
export function getItemEvents(itemId: string): Promise<EventsResponse> {
  return callEndpoint(checkEndpoints.events, { query: { itemId, page: 1, pageSize: ITEM_EVENTS_PAGE_SIZE } });
}

export const itemEventsQueryOptions = (itemId: string) =>
  queryOptions({
    queryKey: queryKeys.monitoringItems.events(itemId),
    queryFn: () => getItemEvents(itemId),
  });

export const useItemEvents = (itemId: string | null) =>
  useQuery({ ...itemEventsQueryOptions(itemId ?? ''), enabled: Boolean(itemId) });
