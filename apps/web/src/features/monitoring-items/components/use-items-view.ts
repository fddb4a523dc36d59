import { ITEM_KINDS, ITEM_SORT_FIELDS, ITEM_STATUSES, type ItemKind } from '@pledgewatch/contract';
import { useCallback, useMemo } from 'react';
import { DEFAULT_PAGE_SIZE } from '@/config/constants';
import { parsePagination } from '@/lib/pagination';
import { useUrlState } from '@/lib/use-url-state';
import type { ItemSortField, ItemStatusFilter, ItemsListQuery } from '../api/get-items';

export type ItemsView = ItemsListQuery & {
  /** The item open in the details drawer. */
  itemId: string | null;
};

const oneOf = <T extends string>(values: readonly T[], value: string | null, fallback: T): T =>
  value !== null && (values as readonly string[]).includes(value) ? (value as T) : fallback;

const STATUS_FILTERS: readonly ItemStatusFilter[] = [...ITEM_STATUSES, 'all'];

/** Defaults are left out of the URL so a plain /monitoring/items link is the default view. */
const DEFAULTS = {
  entity: 'vin',
  page: '1',
  pageSize: String(DEFAULT_PAGE_SIZE),
  sort: 'createdAt',
  order: 'desc',
} as const;

export function parseItemsView(params: URLSearchParams): ItemsView {
  const status = params.get('status');
  return {
    entity: oneOf<ItemKind>(ITEM_KINDS, params.get('entity'), 'vin'),
    ...parsePagination(params),
    sort: oneOf<ItemSortField>(ITEM_SORT_FIELDS, params.get('sort'), 'createdAt'),
    order: oneOf(['asc', 'desc'] as const, params.get('order'), 'desc'),
    search: params.get('search')?.trim() || undefined,
    status: status ? oneOf(STATUS_FILTERS, status, 'active') : undefined,
    itemId: params.get('item'),
  };
}

/** The list query of a view (the open item is not part of it). */
export const toItemsQuery = ({ itemId: _itemId, ...query }: ItemsView): ItemsListQuery => query;

/**
 * The portfolio view (tab, page, sorting, search, status, open item) lives in the URL, so a link or
 * a reload shows the same screen.
 */
export function useItemsView() {
  const [params, setParams] = useUrlState();

  const view = useMemo(() => parseItemsView(params), [params]);

  const update = useCallback(
    (
      changes: Partial<Record<keyof typeof DEFAULTS | 'search' | 'status' | 'item', string | number | null>>,
    ) => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [key, value] of Object.entries(changes)) {
            const text = value === null || value === undefined ? '' : String(value);
            if (text === '' || DEFAULTS[key as keyof typeof DEFAULTS] === text) {
              next.delete(key);
            } else {
              next.set(key, text);
            }
          }
          return next;
        },
        // Typing in the search box or opening an item should not fill the history with entries.
        { replace: !('entity' in changes) },
      );
    },
    [setParams],
  );

  return { view, update };
}
