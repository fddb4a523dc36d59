import type pg from 'pg';
import { withTransaction } from '../db/pool.ts';

/**
 * The demo's history is made through the product's own services, which stamp their rows with the
 * database's now(). To spread it over the last month, each step of the history is followed by a
 * shift of every timestamp that step wrote in the demo organisation (those at or after the step's
 * start) back by the step's age. This lives here, not in the services: production code keeps one
 * clock, and only the demo rewrites what it has just made.
 *
 * Rollups stay equal to a recount: statistics_items_update and statistics_deliveries_update follow
 * an UPDATE of created_at; the event rollups (statistics, severity days, unread counts) have insert
 * and delete triggers only, so events are moved by deleting and re-inserting them in one statement.
 */
const STAMPED: { table: string; columns: string[]; scope: string }[] = [
  {
    table: 'check_runs',
    columns: ['created_at', 'started_at', 'finished_at'],
    scope: 'organisation_id = $3',
  },
  {
    table: 'check_run_batches',
    columns: ['finished_at'],
    scope: 'run_id IN (SELECT id FROM check_runs WHERE organisation_id = $3)',
  },
  { table: 'monitoring_check_ranges', columns: ['checked_at'], scope: 'organisation_id = $3' },
  { table: 'monitoring_items', columns: ['created_at', 'updated_at'], scope: 'organisation_id = $3' },
  { table: 'uploads', columns: ['created_at', 'updated_at', 'finished_at'], scope: 'organisation_id = $3' },
  { table: 'notification_rules', columns: ['created_at', 'updated_at'], scope: 'organisation_id = $3' },
  {
    table: 'notification_deliveries',
    columns: ['created_at', 'last_attempt_at', 'sent_at'],
    scope: 'organisation_id = $3',
  },
  {
    table: 'source_alert_states',
    columns: ['opened_at', 'closed_at'],
    scope: 'rule_id IN (SELECT id FROM notification_rules WHERE organisation_id = $3)',
  },
  { table: 'pledges', columns: ['created_at', 'updated_at'], scope: 'organisation_id = $3' },
  {
    table: 'pledge_events',
    columns: ['created_at', 'corrected_at', 'registered_at'],
    scope: 'organisation_id = $3',
  },
  {
    table: 'pledge_packages',
    columns: ['created_at', 'updated_at', 'approved_at', 'sent_at', 'registered_at'],
    scope: 'organisation_id = $3',
  },
  {
    table: 'pledge_package_history',
    columns: ['created_at'],
    scope: 'package_id IN (SELECT id FROM pledge_packages WHERE organisation_id = $3)',
  },
  {
    table: 'pledge_event_rejections',
    columns: ['rejected_at'],
    scope: 'event_id IN (SELECT id FROM pledge_events WHERE organisation_id = $3)',
  },
  // Datasets are shared by all organisations: only the demo's own versions move.
  { table: 'source_imports', columns: ['created_at', 'activated_at'], scope: `file_name LIKE 'demo-%'` },
  { table: 'audit_log', columns: ['created_at'], scope: 'organisation_id = $3' },
];

/** The database's clock now, a little early: a step's rows are those stamped at or after it. */
export async function stepStart(db: pg.Pool): Promise<Date> {
  const { rows } = await db.query<{ at: Date }>(`SELECT clock_timestamp() - interval '1 second' AS at`);
  return rows[0]!.at;
}

/** Moves every timestamp the demo organisation got since `since` back by `days` (see above). */
export async function backdateSince(
  db: pg.Pool,
  options: { organisationId: string; since: Date; days: number },
): Promise<void> {
  const shift = `${options.days} days`;
  await withTransaction(db, async (tx) => {
    for (const { table, columns, scope } of STAMPED) {
      await tx.query(
        `UPDATE ${table}
            SET ${columns.map((c) => `${c} = CASE WHEN ${c} >= $1 THEN ${c} - $2::interval ELSE ${c} END`).join(', ')}
          WHERE ${scope} AND (${columns.map((c) => `${c} >= $1`).join(' OR ')})`,
        [options.since, shift, ...(scope.includes('$3') ? [options.organisationId] : [])],
      );
    }
    await moveEvents(tx, options.organisationId, options.since, shift);
  });
}

async function moveEvents(tx: pg.PoolClient, organisationId: string, since: Date, shift: string) {
  const { rows } = await tx.query<{ column_name: string }>(
    `SELECT column_name FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = 'monitoring_events' ORDER BY ordinal_position`,
  );
  const columns = rows.map((row) => row.column_name);
  const moved = (column: string) =>
    column === 'detected_at' || column === 'read_at' ? `${column} - $2::interval` : column;
  await tx.query(
    `WITH moved AS (
       DELETE FROM monitoring_events WHERE organisation_id = $3 AND detected_at >= $1 RETURNING *
     )
     INSERT INTO monitoring_events (${columns.join(', ')})
     SELECT ${columns.map(moved).join(', ')} FROM moved`,
    [since, shift, organisationId],
  );
}
