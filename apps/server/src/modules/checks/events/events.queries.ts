import type { EventSortKey, EventType, Severity, SourceType } from '@pledgewatch/contract';
import { itemLastCheckedSql } from '../../../db/item-last-check.ts';
import type { Queryable } from '../../../db/pool.ts';
import { containsPattern } from '../../../lib/like-pattern.ts';
import {
  moscowDate,
  moscowDayAtOrAfter,
  moscowDayStartingAt,
  moscowMidnight,
} from '../../../lib/moscow-time.ts';

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

/** The leading ORDER BY expression of each sort; the same expressions as the indexes of 0022. */
const SORT_EXPRESSIONS: Record<EventSortKey, string | null> = {
  detectedAt: null,
  severity: `(CASE e.severity WHEN 'low' THEN 1 WHEN 'medium' THEN 2 WHEN 'high' THEN 3 WHEN 'critical' THEN 4 ELSE 0 END)`,
  type: 'e.event_type',
  source: 'e.source_type',
};

function orderBy(sort: EventSortKey, order: 'asc' | 'desc'): string {
  const direction = order === 'asc' ? 'ASC' : 'DESC';
  const lead = SORT_EXPRESSIONS[sort];
  return [lead, 'e.detected_at', 'e.id']
    .filter(Boolean)
    .map((column) => `${column} ${direction}`)
    .join(', ');
}

/** The only condition on the items' columns: the count without a search leaves the items out. */
const SEARCH_CONDITION = `($9::text IS NULL OR lower(i.identifier) LIKE $9 OR lower(i.label) LIKE $9
         OR lower(i.contract_number) LIKE $9 OR lower(e.finding_key) LIKE $9)`;

/** The list's filter as SQL over `monitoring_events e` joined to its item `i`: parameters $1–$10. */
function eventFilterSql(filter: EventFilter): { where: string; params: unknown[] } {
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
    search ? containsPattern(search) : null,
    filter.runId ?? null,
  ];
  const where = `e.organisation_id = $1
    AND ($2::timestamptz IS NULL OR e.detected_at >= $2) AND ($3::timestamptz IS NULL OR e.detected_at < $3)
    AND ($4::text[] IS NULL OR e.event_type = ANY($4)) AND ($5::text[] IS NULL OR e.severity = ANY($5))
    AND ($6::text[] IS NULL OR e.source_type = ANY($6)) AND ($7::uuid IS NULL OR e.item_id = $7)
    AND ($8::boolean IS NULL OR (e.read_at IS NOT NULL) = $8)
    AND ${SEARCH_CONDITION}
    AND ($10::uuid IS NULL OR e.run_id = $10)`;
  return { where, params };
}

export async function findEvents(
  db: Queryable,
  filter: EventFilter & { limit: number; offset: number; sort?: EventSortKey; order?: 'asc' | 'desc' },
): Promise<{ items: EventRow[]; total: number; unread: number }> {
  const { where, params } = eventFilterSql(filter);
  const [items, total, unread] = await Promise.all([
    db.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM monitoring_events e JOIN monitoring_items i ON i.id = e.item_id
        WHERE ${where} ORDER BY ${orderBy(filter.sort ?? 'detectedAt', filter.order ?? 'desc')}
        LIMIT $11 OFFSET $12`,
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
 * of rows, and the list is the most visited screen): filters a daily rollup can answer (type, source,
 * severity, a period) sum its few rows — statistics_event_days (0008_statistics.sql), with severities
 * monitoring_event_severity_days (0018) — and a period's parts of a day at either end, if it does not
 * start or end at a Moscow midnight, are counted from the events (at most a day each, through the
 * (organisation, detected_at) index). Unread events of some types, sources and severities sum the
 * unread rollup (0017). Other filters count the events alone; only a search, which reads the items'
 * text, joins the items. Every event has its item (NOT NULL, cascading), so all give the same number.
 */
async function countEvents(
  db: Queryable,
  filter: EventFilter,
  where: string,
  params: unknown[],
): Promise<number> {
  const [organisationId, , , types, severities, sources, itemId, read, search, runId] = params;
  const direct = async (from: unknown, to: unknown) => {
    const bounded = [params[0], from, to, ...params.slice(3)];
    const { rows } = await db.query<{ count: number }>(
      search === null
        ? `SELECT count(*) AS count FROM monitoring_events e WHERE ${where.replace(SEARCH_CONDITION, '$9::text IS NULL')}`
        : `SELECT count(*) AS count FROM monitoring_events e JOIN monitoring_items i ON i.id = e.item_id WHERE ${where}`,
      bounded,
    );
    return rows[0]!.count;
  };
  if ([itemId, read, search, runId].every((value) => value === null)) {
    // Whole days from the rollup; the ends' parts of a day (if any) from the events.
    const fromDay = filter.from ? moscowDayAtOrAfter(filter.from) : null;
    const toDay = filter.to ? moscowDate(new Date(filter.to)) : null;
    if (!fromDay || !toDay || fromDay <= toDay) {
      const [days, head, tail] = await Promise.all([
        sumEventDays(db, { organisationId, fromDay, toDay, types, sources, severities }),
        filter.from && fromDay && !moscowDayStartingAt(filter.from)
          ? direct(filter.from, moscowMidnight(fromDay))
          : 0,
        filter.to && toDay && !moscowDayStartingAt(filter.to) ? direct(moscowMidnight(toDay), filter.to) : 0,
      ]);
      return days + head + tail;
    }
  }
  if (read === false && [filter.from, filter.to, itemId, search, runId].every((value) => !value)) {
    return countUnread(db, filter.organisationId, { types, sources, severities });
  }
  return direct(params[1], params[2]);
}

/** Events of whole Moscow days [fromDay, toDay) from the daily rollups (with severities, 0018's). */
async function sumEventDays(
  db: Queryable,
  filter: {
    organisationId: unknown;
    fromDay: string | null;
    toDay: string | null;
    types: unknown;
    sources: unknown;
    severities: unknown;
  },
): Promise<number> {
  const { rows } = await db.query<{ count: number }>(
    `SELECT coalesce(sum(events), 0)::bigint AS count
       FROM ${filter.severities === null ? 'statistics_event_days' : 'monitoring_event_severity_days'}
      WHERE organisation_id = $1 AND ($2::date IS NULL OR day >= $2) AND ($3::date IS NULL OR day < $3)
        AND ($4::text[] IS NULL OR event_type = ANY($4)) AND ($5::text[] IS NULL OR source_type = ANY($5))
        ${filter.severities === null ? '' : 'AND severity = ANY($6)'}`,
    [
      filter.organisationId,
      filter.fromDay,
      filter.toDay,
      filter.types,
      filter.sources,
      ...(filter.severities === null ? [] : [filter.severities]),
    ],
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

/**
 * Marks every event the list's filter matches read (or unread) in one statement: the filter, not a
 * list of ids, crosses the wire. Events already in that state are left as they are (their read time
 * and reader stay, and the unread rollup's triggers see no change).
 */
export async function setEventsReadByFilter(
  db: Queryable,
  input: { filter: EventFilter; read: boolean; userId: string },
): Promise<number> {
  const { where, params } = eventFilterSql(input.filter);
  const { rowCount } = await db.query(
    `UPDATE monitoring_events e
        SET read_at = CASE WHEN $11 THEN now() END, read_by = CASE WHEN $11 THEN $12::uuid END
       FROM monitoring_items i
      WHERE i.id = e.item_id AND ${where} AND (e.read_at IS NULL) = $11`,
    [...params, input.read, input.userId],
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
    `SELECT i.kind, i.document_type, ${itemLastCheckedSql('i.id')} AS last_checked_at
       FROM monitoring_items i
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
