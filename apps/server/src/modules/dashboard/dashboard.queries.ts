import type { EventType, ItemKind, ItemStatus, Severity } from '@pledgewatch/contract';
import type { Queryable } from '../../db/pool.ts';
import { moscowDayAtOrAfter, moscowMidnight } from '../../lib/moscow-time.ts';

/** Delta rows of one organisation above which they are folded (as the items list does). */
const COUNT_ROWS_TO_COMPACT = 64;

/**
 * From the counts table the item triggers keep (0002_portfolio.sql): a few rows summed, not a
 * count(*) over a portfolio of a million items on every visit of the home screen.
 */
export async function countItemsByKindAndStatus(
  db: Queryable,
  organisationId: string,
): Promise<{ kind: ItemKind; status: ItemStatus; n: number }[]> {
  const { rows } = await db.query<ItemCountRow>(ITEM_COUNTS, [organisationId]);
  return itemCounts(db, organisationId, rows);
}

type ItemCountRow = { kind: ItemKind; status: ItemStatus; n: number; deltas: number };
const ITEM_COUNTS = `SELECT kind, status, sum(items)::int AS n, sum(count(*)) OVER ()::int AS deltas
       FROM monitoring_item_counts WHERE organisation_id = $1 GROUP BY 1, 2`;

/** Folds a rollup's delta rows (with `compact`, an SQL function of 0002/0017) once they have piled up. */
async function foldWhenPiledUp(db: Queryable, organisationId: string, deltas: number, compact: string) {
  if (deltas > COUNT_ROWS_TO_COMPACT) {
    await db.query(`SELECT ${compact}($1)`, [organisationId]);
  }
}

async function itemCounts(db: Queryable, organisationId: string, rows: ItemCountRow[]) {
  await foldWhenPiledUp(db, organisationId, rows[0]?.deltas ?? 0, 'compact_monitoring_item_counts');
  return rows.map(({ kind, status, n }) => ({ kind, status, n }));
}

/**
 * The same rows the events list counts with `read=false` (every event has its item), from the
 * unread rollup the event triggers keep (0017_unread_event_counts.sql): a few rows summed, not the
 * hundreds of thousands of unread events of a large portfolio counted.
 */
export async function countUnreadEvents(
  db: Queryable,
  organisationId: string,
): Promise<{ event_type: EventType; severity: Severity; n: number }[]> {
  const { rows } = await db.query<UnreadRow>(UNREAD_COUNTS, [organisationId]);
  return unreadCounts(db, organisationId, rows);
}

type UnreadRow = { event_type: EventType; severity: Severity; n: number; deltas: number };
const UNREAD_COUNTS = `SELECT event_type, severity, sum(events)::int AS n, sum(count(*)) OVER ()::int AS deltas
       FROM monitoring_event_unread_counts WHERE organisation_id = $1 GROUP BY 1, 2`;

async function unreadCounts(db: Queryable, organisationId: string, rows: UnreadRow[]) {
  await foldWhenPiledUp(db, organisationId, rows[0]?.deltas ?? 0, 'compact_monitoring_event_unread_counts');
  return rows
    .filter((row) => row.n !== 0)
    .map(({ event_type, severity, n }) => ({ event_type, severity, n }));
}

export interface LastRunRow {
  id: string;
  trigger: 'manual' | 'scheduled';
  status: 'queued' | 'running' | 'completed' | 'completed_with_errors' | 'failed';
  items_total: number;
  items_done: number;
  events_created: number;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

const LAST_RUN = `SELECT id, trigger, status, items_total, items_done, events_created, created_at, started_at, finished_at
       FROM check_runs WHERE organisation_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1`;

/**
 * The newest «last checked» of the organisation's items, what the items list shows
 * (0030_range_check_stamps.sql): the newest own stamp, or the newest check range that still holds a
 * ranged item. A few index probes (one per kind and status, 0039), not a scan of the portfolio.
 */
const LAST_ITEM_CHECK_AT = `SELECT greatest(
       (SELECT max(o.at) FROM (VALUES ('active'), ('paused'), ('archived')) s (status) CROSS JOIN LATERAL (
          SELECT max(c.last_checked_at) AS at FROM monitoring_item_checks c
           WHERE c.organisation_id = $1 AND c.kind = k.kind AND c.item_status = s.status
             AND c.unranged_since IS NOT NULL) o),
       (SELECT r.checked_at FROM monitoring_check_ranges r
         WHERE r.organisation_id = $1 AND r.kind = k.kind
           AND EXISTS (SELECT 1 FROM monitoring_item_checks c
                        WHERE c.organisation_id = $1 AND c.kind = k.kind AND c.unranged_since IS NULL
                          AND c.identifier >= lower(r.identifiers) AND c.identifier <= upper(r.identifiers)
                          AND r.identifiers @> c.identifier)
         ORDER BY r.checked_at DESC LIMIT 1)) AS at
       FROM (VALUES ('vin'), ('document')) k (kind)
      ORDER BY at DESC NULLS LAST LIMIT 1`;

/** The same alone (the dashboard reads it inside its one statement). */
export async function getLastItemCheckAt(db: Queryable, organisationId: string): Promise<Date | null> {
  const { rows } = await db.query<{ at: Date | null }>(LAST_ITEM_CHECK_AT, [organisationId]);
  return rows[0]?.at ?? null;
}

/**
 * Failed deliveries, all and since `since`, from the per-day delivery rollup (0008_statistics.sql):
 * its whole days, plus the part of a day from `since` to the next Moscow midnight counted from the
 * deliveries themselves (a bounded range of the status index), not every failed delivery counted.
 */
export async function countFailedDeliveries(
  db: Queryable,
  organisationId: string,
  since: Date,
): Promise<{ recent: number; total: number }> {
  const { rows } = await db.query<{ recent: number; total: number }>(FAILED_DELIVERIES, [
    organisationId,
    ...deliveryPeriod(since),
  ]);
  return rows[0]!;
}

/** $2–$4 of FAILED_DELIVERIES: the instant, its next Moscow day, and that day's midnight. */
const deliveryPeriod = (since: Date) => {
  const fromDay = moscowDayAtOrAfter(since.toISOString());
  return [since, fromDay, moscowMidnight(fromDay)] as const;
};
const FAILED_DELIVERIES = `SELECT (coalesce(sum(deliveries) FILTER (WHERE day >= $3::date), 0)
             + (SELECT count(*) FROM notification_deliveries
                 WHERE organisation_id = $1 AND status = 'failed' AND created_at >= $2::timestamptz AND created_at < $4::timestamptz))::int AS recent,
            coalesce(sum(deliveries), 0)::int AS total
       FROM statistics_delivery_days WHERE organisation_id = $1 AND status = 'failed'`;

export interface RecentCheckRow {
  id: string;
  number: string;
  kind: ItemKind;
  document_type: string | null;
  identifier: string;
  status: 'completed' | 'partial' | 'failed';
  findings_count: number;
  demo: boolean;
  created_by: string | null;
  created_by_name: string;
  created_at: Date;
  duration_ms: number;
}

const RECENT_CHECKS = `SELECT id, number, kind, document_type, identifier, status, findings_count, demo, created_by, created_by_name,
            created_at, duration_ms
       FROM one_time_checks WHERE organisation_id = $1 ORDER BY created_at DESC, id DESC LIMIT $5`;

export interface DashboardRows {
  items: { kind: ItemKind; status: ItemStatus; n: number }[];
  unread: { event_type: EventType; severity: Severity; n: number }[];
  lastRun: LastRunRow | undefined;
  deliveries: { recent: number; total: number };
  checks: RecentCheckRow[];
  lastItemCheckAt: Date | null;
}

/** A row as JSON brings it: the timestamp columns K as text. */
type AsJson<T, K extends keyof T, Extra = never> = Omit<T, K> & Record<K, string | Extra>;
const toDate = (value: string | null) => (value === null ? null : new Date(value));

/**
 * Everything the home screen counts, in one statement (one round trip and one pooled connection per
 * visit instead of six): each part a subquery, the lists as JSON. Timestamps come back as JSON text
 * and are read into Dates as the driver reads them (to the millisecond, truncated).
 */
export async function readDashboard(
  db: Queryable,
  input: { organisationId: string; since: Date; recentChecks: number },
): Promise<DashboardRows> {
  const { rows } = await db.query<{
    items: ItemCountRow[] | null;
    unread: UnreadRow[] | null;
    last_run:
      | (AsJson<LastRunRow, 'created_at'> & AsJson<LastRunRow, 'started_at' | 'finished_at', null>)
      | null;
    deliveries: { recent: number; total: number };
    checks: AsJson<RecentCheckRow, 'created_at'>[] | null;
    last_item_check_at: Date | null;
  }>(
    `SELECT (SELECT json_agg(x) FROM (${ITEM_COUNTS}) x) AS items,
            (SELECT json_agg(x) FROM (${UNREAD_COUNTS}) x) AS unread,
            (SELECT row_to_json(x) FROM (${LAST_RUN}) x) AS last_run,
            (SELECT row_to_json(x) FROM (${FAILED_DELIVERIES}) x) AS deliveries,
            (SELECT json_agg(x ORDER BY x.created_at DESC, x.id DESC) FROM (${RECENT_CHECKS}) x) AS checks,
            (${LAST_ITEM_CHECK_AT}) AS last_item_check_at`,
    [input.organisationId, ...deliveryPeriod(input.since), input.recentChecks],
  );
  const row = rows[0]!;
  const run = row.last_run;
  return {
    items: await itemCounts(db, input.organisationId, row.items ?? []),
    unread: await unreadCounts(db, input.organisationId, row.unread ?? []),
    lastRun: run
      ? {
          ...run,
          created_at: new Date(run.created_at),
          started_at: toDate(run.started_at),
          finished_at: toDate(run.finished_at),
        }
      : undefined,
    deliveries: row.deliveries,
    checks: (row.checks ?? []).map((check) => ({ ...check, created_at: new Date(check.created_at) })),
    lastItemCheckAt: row.last_item_check_at,
  };
}
