import type pg from 'pg';
import { withTransaction } from '../../../db/pool.ts';
import type { JobQueue } from '../../../jobs/job-definition.ts';
import { moscowClock } from '../../../lib/moscow-time.ts';
import { notifyEvents } from '../../notifications/index.ts';
import { insertLapseEvents } from './pledge-lapse.queries.ts';

/**
 * Raises the pledge-term lapse events due today (Moscow date) and tells the notification rules, in
 * one transaction: an event exists only with its notifications. Idempotent — a second call the
 * same day (or a retried job) creates nothing.
 */
export async function raiseLapseEvents(options: {
  db: pg.Pool;
  queue: JobQueue;
  now?: Date;
}): Promise<number> {
  const today = moscowClock(options.now ?? new Date()).date;
  return withTransaction(options.db, async (tx) => {
    const created = await insertLapseEvents(tx, today);
    const byOrganisation = new Map<string, string[]>();
    for (const row of created) {
      byOrganisation.set(row.organisation_id, [...(byOrganisation.get(row.organisation_id) ?? []), row.id]);
    }
    for (const [organisationId, eventIds] of byOrganisation) {
      await notifyEvents({ db: tx, queue: options.queue, organisationId, eventIds });
    }
    return created.length;
  });
}
