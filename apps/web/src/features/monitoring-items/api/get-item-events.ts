import { API, type EventsResponse } from '@pledgewatch/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, isApiError } from '@/lib/api-client';

const ITEM_EVENTS_PAGE_SIZE = 20;

/** The item's latest events; `null` when the events endpoint is not deployed yet (404/501). */
export async function getItemEvents(itemId: string): Promise<EventsResponse | null> {
  try {
    return await api.get<EventsResponse>(API.events, {
      query: { itemId, page: 1, pageSize: ITEM_EVENTS_PAGE_SIZE },
    });
  } catch (error) {
    if (isApiError(error) && (error.status === 404 || error.status === 501)) {
      return null;
    }
    throw error;
  }
}

export const itemEventsQueryOptions = (itemId: string) =>
  queryOptions({
    queryKey: ['monitoring-items', 'events', itemId],
    queryFn: () => getItemEvents(itemId),
  });

export const useItemEvents = (itemId: string | null) =>
  useQuery({ ...itemEventsQueryOptions(itemId ?? ''), enabled: Boolean(itemId) });
