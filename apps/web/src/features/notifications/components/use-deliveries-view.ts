import { DELIVERY_STATUSES, type DeliveryStatus } from '@pledgewatch/contract';
import { useCallback, useMemo } from 'react';
import { DEFAULT_PAGE_SIZE } from '@/config/constants';
import { DELIVERY_LOG_PARAMS } from '@/config/paths';
import { parsePagination } from '@/lib/pagination';
import { useUrlState } from '@/lib/use-url-state';

/**
 * The delivery log's status filter and page, kept in the URL so the dashboard can link to the failed
 * deliveries: `deliveryStatus` (a contract status), `deliveryPage` (from 1) and `deliveryPageSize`.
 */
export type DeliveriesView = { status: DeliveryStatus | ''; page: number; pageSize: number };

export function parseDeliveriesView(params: URLSearchParams): DeliveriesView {
  const status = params.get(DELIVERY_LOG_PARAMS.status) ?? '';
  return {
    status: (DELIVERY_STATUSES as readonly string[]).includes(status) ? (status as DeliveryStatus) : '',
    ...parsePagination(params, DELIVERY_LOG_PARAMS),
  };
}

export function useDeliveriesView() {
  const [params, setParams] = useUrlState();
  const view = useMemo(() => parseDeliveriesView(params), [params]);

  /** Defaults (no status, page 1, the default size) leave the URL. */
  const update = useCallback(
    (changes: Partial<DeliveriesView>) => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          const set = (key: string, value: string, fallback: string) => {
            if (value === fallback) {
              next.delete(key);
            } else {
              next.set(key, value);
            }
          };
          if (changes.status !== undefined) {
            set(DELIVERY_LOG_PARAMS.status, changes.status, '');
          }
          if (changes.page !== undefined) {
            set(DELIVERY_LOG_PARAMS.page, String(changes.page), '1');
          }
          if (changes.pageSize !== undefined) {
            set(DELIVERY_LOG_PARAMS.pageSize, String(changes.pageSize), String(DEFAULT_PAGE_SIZE));
          }
          return next;
        },
        { replace: true },
      );
    },
    [setParams],
  );

  return { view, update };
}
