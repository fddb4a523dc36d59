import { checkEndpoints, type EndpointQuery, type EventsResponse } from '@pledgewatch/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** `from`/`to` are ISO date-times (`to` exclusive); lists are sent comma-joined. */
export type EventsListQuery = EndpointQuery<typeof checkEndpoints.events>;

export const getEvents = (query: EventsListQuery): Promise<EventsResponse> =>
  callEndpoint(checkEndpoints.events, { query });

export const eventsQueryOptions = (query: EventsListQuery) =>
  queryOptions({
    queryKey: queryKeys.events.list(query),
    queryFn: () => getEvents(query),
  });

export const useEvents = (query: EventsListQuery) =>
  useQuery({ ...eventsQueryOptions(query), placeholderData: keepPreviousData });
