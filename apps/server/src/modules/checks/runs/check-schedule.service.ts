/**
 * The daily check schedule (Moscow time) and the minute tick that starts due runs. When the next run
 * falls is one SQL rule in runs.queries.ts, shared by the tick and by what the API shows.
 */
import type { CheckSchedule, UpdateCheckScheduleBody } from '@pledgewatch/contract';
import type pg from 'pg';
import { withTransaction } from '../../../db/pool.ts';
import type { JobQueue } from '../../../jobs/job-definition.ts';
import { AppError } from '../../../lib/app-error.ts';
import type { AuthContext } from '../../../lib/auth-context.ts';
import { recordAudit } from '../../audit/index.ts';
import { claimDueSchedules, getSchedule, upsertSchedule } from './check-schedules.queries.ts';
import { type Deps, startCheckRun } from './runs.service.ts';

export async function getCheckSchedule(options: { db: pg.Pool; auth: AuthContext }): Promise<CheckSchedule> {
  const row = await getSchedule(options.db, options.auth.organisationId);
  if (!row) {
    return {
      enabled: false,
      time: '06:00',
      timezone: 'Europe/Moscow',
      lastTriggeredAt: null,
      nextRunAt: null,
    };
  }
  return {
    enabled: row.enabled,
    time: row.run_at,
    timezone: 'Europe/Moscow',
    lastTriggeredAt: row.last_triggered_at?.toISOString() ?? null,
    nextRunAt: row.enabled ? row.next_run_at.toISOString() : null,
  };
}

export async function updateCheckSchedule(options: {
  db: pg.Pool;
  auth: AuthContext;
  schedule: UpdateCheckScheduleBody;
}): Promise<CheckSchedule> {
  await withTransaction(options.db, async (tx) => {
    await upsertSchedule(tx, {
      organisationId: options.auth.organisationId,
      enabled: options.schedule.enabled,
      time: options.schedule.time,
      userId: options.auth.userId,
    });
    await recordAudit(tx, {
      organisationId: options.auth.organisationId,
      userId: options.auth.userId,
      action: 'check_schedule.updated',
      entity: 'check_schedule',
      entityId: null,
      details: { ...options.schedule },
    });
  });
  return getCheckSchedule(options);
}

/** The minute tick: starts the scheduled runs that are due; an organisation mid-run is skipped today. */
export async function startDueScheduledRuns(options: Deps & { queue: JobQueue }): Promise<number> {
  const due = await withTransaction(options.db, (tx) => claimDueSchedules(tx));
  let started = 0;
  for (const organisationId of due) {
    try {
      await startCheckRun({ ...options, organisationId, trigger: 'scheduled', userId: null });
      started++;
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'CHECK_RUN_IN_PROGRESS')) {
        throw error;
      }
    }
  }
  return started;
}
