// SQL of an organisation's daily check schedule (Moscow time).
import type { Queryable } from '../../../db/pool.ts';

export interface ScheduleRow {
  enabled: boolean;
  run_at: string;
  last_triggered_at: Date | null;
  /** When the minute tick (claimDueSchedules) will take the schedule, if it is enabled. */
  next_run_at: Date;
}

// The one source of truth for the schedule: the tick claims by DUE_NOW, and the next run shown to
// people is derived from the same columns and the same Moscow clock, so the two cannot disagree.
const MOSCOW_NOW = `(now() AT TIME ZONE 'Europe/Moscow')`;
/** Fired today, or saved today with a time already past (upsertSchedule): nothing more today. */
const DONE_TODAY = `coalesce(last_triggered_on >= ${MOSCOW_NOW}::date, false)`;
const DUE_NOW = `run_at <= ${MOSCOW_NOW}::time AND NOT ${DONE_TODAY}`;
const NEXT_RUN_AT = `CASE WHEN ${DONE_TODAY} THEN ((${MOSCOW_NOW}::date + 1) + run_at) AT TIME ZONE 'Europe/Moscow'
                          WHEN ${DUE_NOW} THEN date_trunc('minute', now()) + interval '1 minute'
                          ELSE (${MOSCOW_NOW}::date + run_at) AT TIME ZONE 'Europe/Moscow' END`;

export async function getSchedule(db: Queryable, organisationId: string): Promise<ScheduleRow | undefined> {
  const { rows } = await db.query<ScheduleRow>(
    `SELECT enabled, to_char(run_at, 'HH24:MI') AS run_at, last_triggered_at, ${NEXT_RUN_AT} AS next_run_at
       FROM check_schedules WHERE organisation_id = $1`,
    [organisationId],
  );
  return rows[0];
}

/** Saves the schedule; a time already past today (Moscow) first fires tomorrow. */
export async function upsertSchedule(
  db: Queryable,
  input: { organisationId: string; enabled: boolean; time: string; userId: string },
): Promise<void> {
  await db.query(
    `INSERT INTO check_schedules (organisation_id, enabled, run_at, updated_by, last_triggered_on)
     VALUES ($1, $2, $3::time, $4,
             CASE WHEN $3::time <= (now() AT TIME ZONE 'Europe/Moscow')::time
                  THEN (now() AT TIME ZONE 'Europe/Moscow')::date END)
     ON CONFLICT (organisation_id) DO UPDATE
       SET enabled = EXCLUDED.enabled, run_at = EXCLUDED.run_at, updated_by = EXCLUDED.updated_by,
           updated_at = now(),
           last_triggered_on = greatest(check_schedules.last_triggered_on, EXCLUDED.last_triggered_on)`,
    [input.organisationId, input.enabled, input.time, input.userId],
  );
}

/** Claims the schedules due now (Moscow time) and not yet fired today; marks them fired. */
export async function claimDueSchedules(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ organisation_id: string }>(
    `UPDATE check_schedules s
        SET last_triggered_on = ${MOSCOW_NOW}::date, last_triggered_at = now()
      WHERE s.organisation_id IN (
              SELECT organisation_id FROM check_schedules
               WHERE enabled AND ${DUE_NOW}
               FOR UPDATE SKIP LOCKED)
      RETURNING s.organisation_id`,
  );
  return rows.map((row) => row.organisation_id);
}
