import {
  EVENT_SORT_KEYS,
  EVENT_TYPE_CODES,
  type EventSortKey,
  type EventType,
  SEVERITY_CODES,
  type Severity,
  SOURCE_TYPE_CODES,
  type SourceType,
} from '@pledgewatch/contract';
import { useCallback, useMemo } from 'react';
import { DEFAULT_PAGE_SIZE } from '@/config/constants';
import { moscowMidnight, nextDay } from '@/lib/moscow-time';
import { parsePagination } from '@/lib/pagination';
import { useUrlState } from '@/lib/use-url-state';
import type { EventsListQuery } from '../api/get-events';

/**
 * The events screen's state, all in the URL so the dashboard can link to a filtered list:
 * `type`, `severity`, `source` — comma lists of contract codes; `read` — `true`/`false`;
 * `from`, `to` — dates ГГГГ-ММ-ДД (Moscow days, both included) or ISO date-times; `search`;
 * `itemId`, `runId`; `sort` (detectedAt, severity, type, source) and `order` (asc, desc); `page` (from 1)
 * and `pageSize`.
 */
export type EventsView = {
  page: number;
  pageSize: number;
  from: string;
  to: string;
  type: EventType[];
  severity: Severity[];
  source: SourceType[];
  read: 'all' | 'unread' | 'read';
  search: string;
  itemId: string | null;
  runId: string | null;
  /** Column sorted on the server; `detectedAt` newest first by default. */
  sort: EventSortKey;
  order: 'asc' | 'desc';
};

export type EventsViewKey =
  | 'page'
  | 'pageSize'
  | 'from'
  | 'to'
  | 'type'
  | 'severity'
  | 'source'
  | 'read'
  | 'search'
  | 'itemId'
  | 'runId'
  | 'sort'
  | 'order';

const codes = <T extends string>(allowed: readonly T[], value: string | null): T[] =>
  (value ?? '').split(',').filter((code): code is T => (allowed as readonly string[]).includes(code));

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A Moscow calendar day (or an ISO date-time passed through) as the API's bound. */
function toBound(value: string, end: boolean): string | undefined {
  if (!value) {
    return undefined;
  }
  if (!DATE.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
    return Number.isNaN(Date.parse(value)) ? undefined : value;
  }
  // `to` is exclusive on the server: the day after the last day shown.
  return moscowMidnight(end ? nextDay(value) : value);
}

export function parseEventsView(params: URLSearchParams): EventsView {
  const read = params.get('read');
  return {
    ...parsePagination(params),
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
    type: codes(EVENT_TYPE_CODES, params.get('type')),
    severity: codes(SEVERITY_CODES, params.get('severity')),
    source: codes(SOURCE_TYPE_CODES, params.get('source')),
    read: read === 'false' ? 'unread' : read === 'true' ? 'read' : 'all',
    search: params.get('search') ?? '',
    itemId: params.get('itemId'),
    runId: params.get('runId'),
    sort: codes(EVENT_SORT_KEYS, params.get('sort'))[0] ?? 'detectedAt',
    order: params.get('order') === 'asc' ? 'asc' : 'desc',
  };
}

export function toEventsQuery(view: EventsView): EventsListQuery {
  return {
    page: view.page,
    pageSize: view.pageSize,
    from: toBound(view.from, false),
    to: toBound(view.to, true),
    type: view.type,
    severity: view.severity,
    source: view.source,
    read: view.read === 'all' ? undefined : view.read === 'read',
    search: view.search.trim() || undefined,
    itemId: view.itemId ?? undefined,
    runId: view.runId ?? undefined,
    ...(view.sort === 'detectedAt' && view.order === 'desc' ? {} : { sort: view.sort, order: view.order }),
  };
}

export const hasFilters = (view: EventsView): boolean =>
  Boolean(
    view.from ||
      view.to ||
      view.type.length ||
      view.severity.length ||
      view.source.length ||
      view.read !== 'all' ||
      view.search ||
      view.itemId ||
      view.runId,
  );

/** The filters the drawer holds that narrow the list now (item and run show as chips of their own). */
export const activeFilterCount = (view: EventsView): number =>
  [
    view.from,
    view.to,
    view.type.length,
    view.severity.length,
    view.source.length,
    view.read !== 'all',
    view.search,
  ].filter(Boolean).length;

/** A column's first direction: time and importance highest first, type and source A→Z. */
export const naturalOrder = (column: EventSortKey): EventsView['order'] =>
  column === 'detectedAt' || column === 'severity' ? 'desc' : 'asc';

/** The URL change for a sort; the default (newest first) leaves `sort` and `order` out. */
export const sortChanges = (column: EventSortKey, order: EventsView['order']) =>
  column === 'detectedAt' && order === 'desc' ? { sort: null, order: null } : { sort: column, order };

export function useEventsView() {
  const [params, setParams] = useUrlState();
  const view = useMemo(() => parseEventsView(params), [params]);

  /** Any change other than the page itself goes back to page 1. */
  const update = useCallback(
    (changes: Partial<Record<EventsViewKey, string | string[] | number | null>>) => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [key, value] of Object.entries(changes)) {
            const text = Array.isArray(value)
              ? value.join(',')
              : value === null || value === undefined
                ? ''
                : String(value);
            if (
              text === '' ||
              (key === 'page' && text === '1') ||
              (key === 'pageSize' && text === String(DEFAULT_PAGE_SIZE))
            ) {
              next.delete(key);
            } else {
              next.set(key, text);
            }
          }
          if (!('page' in changes)) {
            next.delete('page');
          }
          return next;
        },
        { replace: true },
      );
    },
    [setParams],
  );

  const reset = useCallback(() => setParams(new URLSearchParams(), { replace: true }), [setParams]);

  return { view, update, reset };
}
