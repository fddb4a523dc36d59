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
  const { rows } = await db.query<{ kind: ItemKind; status: ItemStatus; n: number; deltas: number }>(
    `SELECT kind, status, sum(items)::int AS n, sum(count(*)) OVER ()::int AS deltas
       FROM monitoring_item_counts WHERE organisation_id = $1 GROUP BY 1, 2`,
    [organisationId],
  );
  if ((rows[0]?.deltas ?? 0) > COUNT_ROWS_TO_COMPACT) {
    await db.query('SELECT compact_monitoring_item_counts($1)', [organisationId]);
  }
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
  const { rows } = await db.query<{ event_type: EventType; severity: Severity; n: number; deltas: number }>(
    `SELECT event_type, severity, sum(events)::int AS n, sum(count(*)) OVER ()::int AS deltas
       FROM monitoring_event_unread_counts WHERE organisation_id = $1 GROUP BY 1, 2`,
    [organisationId],
  );
  if ((rows[0]?.deltas ?? 0) > COUNT_ROWS_TO_COMPACT) {
    await db.query('SELECT compact_monitoring_event_unread_counts($1)', [organisationId]);
  }
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

export async function getLastCheckRun(
  db: Queryable,
  organisationId: string,
): Promise<LastRunRow | undefined> {
  const { rows } = await db.query<LastRunRow>(
    `SELECT id, trigger, status, items_total, items_done, events_created, created_at, started_at, finished_at
       FROM check_runs WHERE organisation_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1`,
    [organisationId],
  );
  return rows[0];
}

/**
 * The newest «last checked» of the organisation's items, what the items list shows
 * (0030_range_check_stamps.sql): the newest own stamp, or the newest check range that still holds a
 * ranged item. A few index probes, not a scan of the portfolio.
 */
export async function getLastItemCheckAt(db: Queryable, organisationId: string): Promise<Date | null> {
  const { rows } = await db.query<{ at: Date | null }>(
    `SELECT greatest(
       (SELECT max(c.last_checked_at) FROM monitoring_item_checks c
         WHERE c.organisation_id = $1 AND c.kind = k.kind AND c.unranged_since IS NOT NULL),
       (SELECT r.checked_at FROM monitoring_check_ranges r
         WHERE r.organisation_id = $1 AND r.kind = k.kind
           AND EXISTS (SELECT 1 FROM monitoring_item_checks c
                        WHERE c.organisation_id = $1 AND c.kind = k.kind AND c.unranged_since IS NULL
                          AND c.identifier >= lower(r.identifiers) AND c.identifier <= upper(r.identifiers)
                          AND r.identifiers @> c.identifier)
         ORDER BY r.checked_at DESC LIMIT 1)) AS at
       FROM (VALUES ('vin'), ('document')) k (kind)
      ORDER BY at DESC NULLS LAST LIMIT 1`,
    [organisationId],
  );
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
  const fromDay = moscowDayAtOrAfter(since.toISOString());
  const { rows } = await db.query<{ recent: number; total: number }>(
    `SELECT (coalesce(sum(deliveries) FILTER (WHERE day >= $3::date), 0)
             + (SELECT count(*) FROM notification_deliveries
                 WHERE organisation_id = $1 AND status = 'failed' AND created_at >= $2 AND created_at < $4))::int AS recent,
            coalesce(sum(deliveries), 0)::int AS total
       FROM statistics_delivery_days WHERE organisation_id = $1 AND status = 'failed'`,
    [organisationId, since, fromDay, moscowMidnight(fromDay)],
  );
  return rows[0]!;
}

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

export async function findRecentOneTimeChecks(
  db: Queryable,
  organisationId: string,
  limit: number,
): Promise<RecentCheckRow[]> {
  const { rows } = await db.query<RecentCheckRow>(
    `SELECT id, number, kind, document_type, identifier, status, findings_count, demo, created_by, created_by_name,
            created_at, duration_ms
       FROM one_time_checks WHERE organisation_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
    [organisationId, limit],
  );
  return rows;
}
