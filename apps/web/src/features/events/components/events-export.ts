import {
  type EndpointQuery,
  type EventsFilter,
  monitoringEndpoints,
  REPORT_MAX_DAYS,
} from '@pledgewatch/contract';
import { endpointUrl } from '@/lib/api-client';
import { moscowToday } from '@/lib/moscow-time';
import type { EventsListQuery } from '../api/get-events';
import type { EventsView } from './use-events-view';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The list's filter without page and order: what «everything matching the filter» means. */
export function eventsFilterOf(query: EventsListQuery): EventsFilter {
  const { page: _page, pageSize: _pageSize, sort: _sort, order: _order, ...filter } = query;
  return filter;
}

/** A bound of the list (a Moscow day, or an ISO instant from a dashboard link) as a Moscow day. */
const dayOf = (value: string): string | null => {
  if (DATE.test(value)) {
    return value;
  }
  const instant = Date.parse(value);
  return Number.isNaN(instant) ? null : moscowToday(instant);
};

/**
 * The events report (the report screen's own file) with the list's filters: without a period the
 * longest one a report takes, ending today.
 */
export function eventsExportUrl(view: EventsView, format: 'xlsx' | 'csv'): string {
  const to = dayOf(view.to) ?? moscowToday();
  const earliest = new Date(Date.parse(`${to}T00:00:00Z`) - (REPORT_MAX_DAYS - 1) * 86_400_000)
    .toISOString()
    .slice(0, 10);
  const from = dayOf(view.from) ?? earliest;
  const query: EndpointQuery<typeof monitoringEndpoints.report> = {
    kind: 'events',
    format,
    from: from < earliest ? earliest : from,
    to,
    type: view.type,
    severity: view.severity,
    source: view.source,
    read: view.read === 'all' ? undefined : view.read === 'read',
    search: view.search.trim() || undefined,
    itemId: view.itemId ?? undefined,
    runId: view.runId ?? undefined,
  };
  return endpointUrl(monitoringEndpoints.report, { query });
}
