import { EVENT_SUBMISSION_STATUSES, PLEDGE_EVENT_KINDS } from '@pledgewatch/contract';
import { useCallback, useMemo } from 'react';
import { DEFAULT_PAGE_SIZE } from '@/config/constants';
import { parsePagination } from '@/lib/pagination';
import { useUrlState } from '@/lib/use-url-state';
import type { RegistryFilters } from './registry-filters';

/**
 * The registry table's filters and page, all in the URL so a link, a reload or a saved view shows the
 * same list: `kind`, `status` — comma lists of contract codes; `from`, `to` — dates ГГГГ-ММ-ДД;
 * `lapsing=true`; `vin`, `pledgor`, `registrationNumber`; `page` (from 1) and `pageSize`. The open
 * notification (`event`) is kept beside them and is not a filter.
 */
export type RegistryView = RegistryFilters & { page: number; pageSize: number };

/** The filter keys as they stand in the URL (a saved view of the registry holds only these). */
export const REGISTRY_FILTER_KEYS = [
  'kind',
  'status',
  'from',
  'to',
  'lapsing',
  'vin',
  'pledgor',
  'registrationNumber',
] as const satisfies readonly (keyof RegistryFilters)[];

const codes = <T extends string>(allowed: readonly T[], value: string | null): T[] | undefined => {
  const list = (value ?? '')
    .split(',')
    .filter((code): code is T => (allowed as readonly string[]).includes(code));
  return list.length > 0 ? list : undefined;
};

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const date = (value: string | null) => (value && DATE.test(value) ? value : undefined);
const text = (value: string | null) => value || undefined;

export function parseRegistryView(params: URLSearchParams): RegistryView {
  return {
    ...parsePagination(params),
    kind: codes(PLEDGE_EVENT_KINDS, params.get('kind')),
    status: codes(EVENT_SUBMISSION_STATUSES, params.get('status')),
    from: date(params.get('from')),
    to: date(params.get('to')),
    lapsing: params.get('lapsing') === 'true' || undefined,
    vin: text(params.get('vin')),
    pledgor: text(params.get('pledgor')),
    registrationNumber: text(params.get('registrationNumber')),
  };
}

const asParam = (value: unknown): string =>
  Array.isArray(value)
    ? value.join(',')
    : value === undefined || value === null || value === false
      ? ''
      : String(value);

export function useRegistryView() {
  const [params, setParams] = useUrlState();
  const view = useMemo(() => parseRegistryView(params), [params]);

  /** A filter change goes back to page 1; the URL is replaced, so typing leaves no history trail. */
  const setFilters = useCallback(
    (patch: RegistryFilters) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [key, value] of Object.entries(patch)) {
            const param = asParam(value);
            if (param === '') {
              next.delete(key);
            } else {
              next.set(key, param);
            }
          }
          next.delete('page');
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  const setPagination = useCallback(
    (page: number, pageSize: number) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (page === 1) {
            next.delete('page');
          } else {
            next.set('page', String(page));
          }
          if (pageSize === DEFAULT_PAGE_SIZE) {
            next.delete('pageSize');
          } else {
            next.set('pageSize', String(pageSize));
          }
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  return { view, setFilters, setPagination };
}
