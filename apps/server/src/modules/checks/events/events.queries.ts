import type { EventType, Severity, SourceType } from '@pledgewatch/contract';
import type { Queryable } from '../../../db/pool.ts';
import { moscowDayStartingAt } from '../../../lib/moscow-time.ts';

export interface EventRow {
  id: string;
  organisation_id: string;
  item_id: string;
  run_id: string | null;
  source_type: SourceType;
  event_type: EventType;
  severity: Severity;
  finding_key: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  first_check: boolean;
  demo: boolean;
  detected_at: Date;
  read_at: Date | null;
  item_kind: 'vin' | 'document';
  item_document_type: string | null;
  item_identifier: string;
  item_label: string | null;
  item_contract_number: string | null;
}

const EVENT_COLUMNS = `e.id, e.organisation_id, e.item_id, e.run_id, e.source_type, e.event_type, e.severity, e.finding_key,
  e.before, e.after, e.first_check, e.demo, e.detected_at, e.read_at, i.kind AS item_kind,
  i.document_type AS item_document_type, i.identifier AS item_identifier, i.label AS item_label,
  i.contract_number AS item_contract_number`;

export interface EventFilter {
  organisationId: string;
  from?: string;
  to?: string;
  types?: string[];
  severities?: string[];
  sources?: string[];
  itemId?: string;
  runId?: string;
  read?: boolean;
  search?: string;
}

/** The only condition on the items' columns: the count without a search leaves the items out. */
const SEARCH_CONDITION = `($9::text IS NULL OR lower(i.identifier) LIKE $9 OR lower(i.label) LIKE $9
         OR lower(i.contract_number) LIKE $9 OR lower(e.finding_key) LIKE $9)`;

export async function findEvents(
  db: Queryable,
  filter: EventFilter & { limit: number; offset: number },
): Promise<{ items: EventRow[]; total: number; unread: number }> {
  const search = filter.search ? filter.search.replace(/[\s-]+/g, '').toLowerCase() : null;
  const params = [
    filter.organisationId,
    filter.from ?? null,
    filter.to ?? null,
    filter.types?.length ? filter.types : null,
    filter.severities?.length ? filter.severities : null,
    filter.sources?.length ? filter.sources : null,
    filter.itemId ?? null,
    filter.read ?? null,
    search ? `%${search}%` : null,
    filter.runId ?? null,
  ];
  const where = `e.organisation_id = $1
    AND ($2::timestamptz IS NULL OR e.detected_at >= $2) AND ($3::timestamptz IS NULL OR e.detected_at < $3)
    AND ($4::text[] IS NULL OR e.event_type = ANY($4)) AND ($5::text[] IS NULL OR e.severity = ANY($5))
    AND ($6::text[] IS NULL OR e.source_type = ANY($6)) AND ($7::uuid IS NULL OR e.item_id = $7)
    AND ($8::boolean IS NULL OR (e.read_at IS NOT NULL) = $8)
    AND ${SEARCH_CONDITION}
    AND ($10::uuid IS NULL OR e.run_id = $10)`;
  const [items, total, unread] = await Promise.all([
    db.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM monitoring_events e JOIN monitoring_items i ON i.id = e.item_id
        WHERE ${where} ORDER BY e.detected_at DESC, e.id DESC LIMIT $11 OFFSET $12`,
      [...params, filter.limit, filter.offset],
    ),
    countEvents(db, filter, where, params),
    countUnread(db, filter.organisationId, {}),
  ]);
  return { items: items.rows, total, unread };
}

/** Delta rows of one organisation's unread rollup above which they are folded (as the dashboard does). */
const UNREAD_ROWS_TO_COMPACT = 64;

/**
 * Unread events of the organisation, of the given types, sources and severities, from the rollup the
 * event triggers keep (0017_unread_event_counts.sql) instead of counting unread events themselves.
 */
async function countUnread(
  db: Queryable,
  organisationId: string,
  filter: { types?: unknown; sources?: unknown; severities?: unknown },
): Promise<number> {
  const { rows } = await db.query<{ count: number; deltas: number }>(
    `SELECT coalesce(sum(events) FILTER (WHERE ($2::text[] IS NULL OR event_type = ANY($2))
                                           AND ($3::text[] IS NULL OR source_type = ANY($3))
                                           AND ($4::text[] IS NULL OR severity = ANY($4))), 0)::bigint AS count,
            count(*)::int AS deltas
       FROM monitoring_event_unread_counts WHERE organisation_id = $1`,
    [organisationId, filter.types ?? null, filter.sources ?? null, filter.severities ?? null],
  );
  if (rows[0]!.deltas > UNREAD_ROWS_TO_COMPACT) {
    await db.query('SELECT compact_monitoring_event_unread_counts($1)', [organisationId]);
  }
  return rows[0]!.count;
}

/**
 * The list total, as cheaply as the filter allows (a year of events of a million items is millions
 * of rows, and the list is the most visited screen): filters the daily rollup can answer (type,
 * source, whole Moscow days) sum its few rows (0008_statistics.sql), with severities the severity
 * days (0018_event_severity_days.sql); unread events of some types,
 * sources and severities sum the unread rollup (0017_unread_event_counts.sql); other filters count the events
 * alone; only a search, which reads the items' text, joins the items. Every event has its item
 * (NOT NULL, cascading), so all three give the same number.
 */
async function countEvents(
  db: Queryable,
  filter: EventFilter,
  where: string,
  params: unknown[],
): Promise<number> {
  const [organisationId, , , types, severities, sources, itemId, read, search, runId] = params;
  const fromDay = filter.from ? moscowDayStartingAt(filter.from) : null;
  const toDay = filter.to ? moscowDayStartingAt(filter.to) : null;
  const wholeDays = (!filter.from || fromDay) && (!filter.to || toDay);
  if (wholeDays && [severities, itemId, read, search, runId].every((value) => value === null)) {
    const { rows } = await db.query<{ count: number }>(
      `SELECT coalesce(sum(events), 0)::bigint AS count FROM statistics_event_days
        WHERE organisation_id = $1 AND ($2::date IS NULL OR day >= $2) AND ($3::date IS NULL OR day < $3)
          AND ($4::text[] IS NULL OR event_type = ANY($4)) AND ($5::text[] IS NULL OR source_type = ANY($5))`,
      [organisationId, fromDay, toDay, types, sources],
    );
    return rows[0]!.count;
  }
  if (wholeDays && severities !== null && [itemId, read, search, runId].every((value) => value === null)) {
    const { rows } = await db.query<{ count: number }>(
      `SELECT coalesce(sum(events), 0)::bigint AS count FROM monitoring_event_severity_days
        WHERE organisation_id = $1 AND ($2::date IS NULL OR day >= $2) AND ($3::date IS NULL OR day < $3)
          AND ($4::text[] IS NULL OR event_type = ANY($4)) AND ($5::text[] IS NULL OR source_type = ANY($5))
          AND severity = ANY($6)`,
      [organisationId, fromDay, toDay, types, sources, severities],
    );
    return rows[0]!.count;
  }
  if (read === false && [filter.from, filter.to, itemId, search, runId].every((value) => !value)) {
    return countUnread(db, filter.organisationId, { types, sources, severities });
  }
  const { rows } = await db.query<{ count: number }>(
    search === null
      ? `SELECT count(*) AS count FROM monitoring_events e WHERE ${where.replace(SEARCH_CONDITION, '$9::text IS NULL')}`
      : `SELECT count(*) AS count FROM monitoring_events e JOIN monitoring_items i ON i.id = e.item_id WHERE ${where}`,
    params,
  );
  return rows[0]!.count;
}

export async function setEventsRead(
  db: Queryable,
  input: { organisationId: string; ids: string[]; read: boolean; userId: string },
): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE monitoring_events
        SET read_at = CASE WHEN $3 THEN coalesce(read_at, now()) END, read_by = CASE WHEN $3 THEN $4::uuid END
      WHERE organisation_id = $1 AND id = ANY($2::uuid[])`,
    [input.organisationId, input.ids, input.read, input.userId],
  );
  return rowCount ?? 0;
}

export async function getItemSnapshots(
  db: Queryable,
  input: { organisationId: string; itemId: string },
): Promise<
  | {
      kind: 'vin' | 'document';
      document_type: string | null;
      last_checked_at: Date | null;
      snapshots: {
        source_type: SourceType;
        findings: { key: string; payload: Record<string, unknown> }[];
        updated_at: Date;
      }[];
    }
  | undefined
> {
  const item = await db.query<{
    kind: 'vin' | 'document';
    document_type: string | null;
    last_checked_at: Date | null;
  }>(
    `SELECT i.kind, i.document_type, c.last_checked_at
       FROM monitoring_items i LEFT JOIN monitoring_item_checks c ON c.item_id = i.id
      WHERE i.id = $1 AND i.organisation_id = $2`,
    [input.itemId, input.organisationId],
  );
  if (!item.rows[0]) {
    return undefined;
  }
  const { rows } = await db.query<{
    source_type: SourceType;
    findings: { key: string; payload: Record<string, unknown> }[];
    updated_at: Date;
  }>(
    'SELECT source_type, findings, updated_at FROM finding_snapshots WHERE item_id = $1 AND organisation_id = $2',
    [input.itemId, input.organisationId],
  );
  return { ...item.rows[0], snapshots: rows };
}
