import { z } from 'zod';
import { defineJob } from '../../../jobs/job-definition.ts';
import { fetchPassportList } from '../passport-list/passport-list-fetch.ts';

/**
 * Daily (Moscow time): asks SOURCE_PASSPORT_LIST_URL whether the MVD list changed (a conditional
 * request) and queues the import of a changed file. Does nothing when the variable is not set.
 */
export const passportListFetchJob = defineJob({
  name: 'checks.passport-list-fetch',
  payload: z.object({}).passthrough(),
  cron: { expression: '20 4 * * *', tz: 'Europe/Moscow' },
  queue: { retryLimit: 2, retryDelay: 600, expireInSeconds: 2 * 3600, heartbeatSeconds: 10 },
  async handler(_job, { db, queue, config, log }) {
    const outcome = await fetchPassportList({ db, queue, config });
    if (outcome.result === 'failed') {
      log.warn({ reason: outcome.reason }, 'passport list fetch failed');
    }
  },
});
