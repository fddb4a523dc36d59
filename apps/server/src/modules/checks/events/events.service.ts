import type { eventsFilterSchema, eventsQuerySchema } from '@pledgewatch/contract';
import {
  EVENT_TYPES,
  type EventsQuery,
  type EventsResponse,
  type ItemFindingsResponse,
  type MonitoringEvent,
  SOURCE_TYPE_CODES,
  SOURCE_TYPES,
} from '@pledgewatch/contract';
import type { DocumentType } from '@pledgewatch/identifiers';
import type pg from 'pg';
import type { z } from 'zod';
import { AppError } from '../../../lib/app-error.ts';
import type { AuthContext } from '../../../lib/auth-context.ts';
import { sourceAnswersFor } from '../sources/dataset-source.ts';
import {
  type EventRow,
  findEvents as findEventRows,
  getItemSnapshots,
  setEventsRead,
  setEventsReadByFilter,
} from './events.queries.ts';

export type { EventsQuery };

export function toEvent(row: EventRow): MonitoringEvent {
  return {
    id: row.id,
    type: row.event_type,
    typeLabel: EVENT_TYPES[row.event_type].label,
    severity: row.severity,
    source: row.source_type,
    sourceName: SOURCE_TYPES[row.source_type].name,
    findingKey: row.finding_key,
    before: row.before,
    after: row.after,
    firstCheck: row.first_check,
    demo: row.demo,
    detectedAt: row.detected_at.toISOString(),
    read: row.read_at !== null,
    runId: row.run_id,
    item: {
      id: row.item_id,
      kind: row.item_kind,
      documentType: row.item_document_type,
      identifier: row.item_identifier,
      label: row.item_label,
      contractNumber: row.item_contract_number,
    },
  };
}

export async function findEvents(
  options: { db: pg.Pool; auth: AuthContext } & z.infer<typeof eventsQuerySchema>,
): Promise<EventsResponse> {
  const { items, total, unread } = await findEventRows(options.db, {
    organisationId: options.auth.organisationId,
    from: options.from,
    to: options.to,
    types: options.type,
    severities: options.severity,
    sources: options.source,
    itemId: options.itemId,
    runId: options.runId,
    read: options.read,
    search: options.search,
    sort: options.sort,
    order: options.order,
    limit: options.pageSize,
    offset: (options.page - 1) * options.pageSize,
  });
  return { items: items.map(toEvent), total, unread };
}

export async function markEventsRead(options: {
  db: pg.Pool;
  auth: AuthContext;
  ids: string[];
  read: boolean;
}): Promise<{ updated: number }> {
  const updated = await setEventsRead(options.db, {
    organisationId: options.auth.organisationId,
    ids: options.ids,
    read: options.read,
    userId: options.auth.userId,
  });
  return { updated };
}

/** Every event the list's filter matches, marked read or unread (`updated`: how many changed). */
export async function markEventsReadByFilter(options: {
  db: pg.Pool;
  auth: AuthContext;
  filter: z.infer<typeof eventsFilterSchema>;
  read: boolean;
}): Promise<{ updated: number }> {
  const { filter } = options;
  const updated = await setEventsReadByFilter(options.db, {
    filter: {
      organisationId: options.auth.organisationId,
      from: filter.from,
      to: filter.to,
      types: filter.type,
      severities: filter.severity,
      sources: filter.source,
      itemId: filter.itemId,
      runId: filter.runId,
      read: filter.read,
      search: filter.search,
    },
    read: options.read,
    userId: options.auth.userId,
  });
  return { updated };
}

export async function getItemFindings(options: {
  db: pg.Pool;
  auth: AuthContext;
  itemId: string;
}): Promise<ItemFindingsResponse> {
  const found = await getItemSnapshots(options.db, {
    organisationId: options.auth.organisationId,
    itemId: options.itemId,
  });
  if (!found) {
    throw new AppError('NOT_FOUND', { message: 'Объект не найден' });
  }
  const bySource = new Map(found.snapshots.map((row) => [row.source_type, row]));
  return {
    itemId: options.itemId,
    lastCheckedAt: found.last_checked_at?.toISOString() ?? null,
    // Every source that answers for the item, with no findings where its snapshot is empty.
    sources: SOURCE_TYPE_CODES.filter(
      (type) =>
        bySource.has(type) ||
        sourceAnswersFor(type, {
          kind: found.kind,
          documentType: found.document_type as DocumentType | null,
        }),
    ).map((type) => ({
      type,
      name: SOURCE_TYPES[type].name,
      findings: bySource.get(type)?.findings ?? [],
      checkedAt: bySource.get(type)?.updated_at.toISOString() ?? null,
    })),
  };
}
