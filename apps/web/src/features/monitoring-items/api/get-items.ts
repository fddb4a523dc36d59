import {
  type EndpointQuery,
  type ItemsResponse,
  monitoringEndpoints,
  type WithRequired,
} from '@pledgewatch/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

type ItemsQuery = EndpointQuery<typeof monitoringEndpoints.items>;
/** The screen always knows its kind, page and order; search and status are filters. */
export type ItemsListQuery = WithRequired<ItemsQuery, 'entity' | 'page' | 'pageSize' | 'sort' | 'order'>;
export type ItemSortField = ItemsListQuery['sort'];
export type ItemStatusFilter = NonNullable<ItemsQuery['status']>;

export const getItems = (query: ItemsListQuery): Promise<ItemsResponse> =>
  callEndpoint(monitoringEndpoints.items, { query });

export const itemsQueryOptions = (query: ItemsListQuery) =>
  queryOptions({
    queryKey: queryKeys.monitoringItems.list(query),
    queryFn: () => getItems(query),
  });

export const useItems = (query: ItemsListQuery) =>
  // The previous page stays on screen while the next one loads, so the table does not jump.
  useQuery({ ...itemsQueryOptions(query), placeholderData: keepPreviousData });
