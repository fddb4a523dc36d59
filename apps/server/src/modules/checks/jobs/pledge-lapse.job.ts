import { z } from 'zod';
import { defineJob } from '../../../jobs/job-definition.ts';
import { raiseLapseEvents } from '../lapse/pledge-lapse.ts';

/**
 * Hourly (Moscow time): the pledge-term lapse events due today — 30 and 7 days before the contract
 * term ends and on the day. Hourly rather than daily so that a worker down at one tick loses
 * nothing; each event is created once however often it runs.
 */
export const pledgeLapseJob = defineJob({
  name: 'checks.pledge-lapse',
  payload: z.object({}).passthrough(),
  cron: { expression: '5 * * * *', tz: 'Europe/Moscow' },
  queue: { retryLimit: 2, retryDelay: 60, expireInSeconds: 600 },
  async handler(_job, { db, queue, log }) {
    const created = await raiseLapseEvents({ db, queue });
    if (created > 0) {
      log.info({ events: created }, 'pledge lapse events raised');
    }
  },
});
