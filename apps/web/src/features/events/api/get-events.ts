import {
  API,
  type EventSortKey,
  type EventsResponse,
  type EventType,
  type Severity,
  type SourceType,
} from '@pledgewatch/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** The contract's query schema coerces strings, so its input type is too loose for the client. */
export type EventsListQuery = {
  page: number;
  pageSize: number;
  /** ISO date-times; `to` is exclusive. */
  from?: string;
  to?: string;
  type?: EventType[];
  severity?: Severity[];
  source?: SourceType[];
  read?: boolean;
  search?: string;
  itemId?: string;
  runId?: string;
  sort?: EventSortKey;
  order?: 'asc' | 'desc';
};

const list = <T extends string>(values: T[] | undefined) =>
  values && values.length > 0 ? values.join(',') : undefined;

export const getEvents = ({ type, severity, source, ...query }: EventsListQuery): Promise<EventsResponse> =>
  api.get<EventsResponse>(API.events, {
    query: { ...query, type: list(type), severity: list(severity), source: list(source) },
  });

export const eventsQueryOptions = (query: EventsListQuery) =>
  queryOptions({
    queryKey: queryKeys.events.list(query),
    queryFn: () => getEvents(query),
  });

export const useEvents = (query: EventsListQuery) =>
  useQuery({ ...eventsQueryOptions(query), placeholderData: keepPreviousData });
