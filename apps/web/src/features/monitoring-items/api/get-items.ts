import {
  type ITEM_SORT_FIELDS,
  type ItemKind,
  type ItemStatus,
  type ItemsResponse,
  monitoringEndpoints,
} from '@pledgewatch/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export type ItemSortField = (typeof ITEM_SORT_FIELDS)[number];
export type ItemStatusFilter = ItemStatus | 'all';

/** The contract's query schema coerces strings, so its input type is too loose for the client. */
export type ItemsListQuery = {
  entity: ItemKind;
  page: number;
  pageSize: number;
  sort: ItemSortField;
  order: 'asc' | 'desc';
  search?: string;
  status?: ItemStatusFilter;
};

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
