import { z } from 'zod';
import { defineJob } from '../../../jobs/job-definition.ts';
import { pruneOldAttempts } from '../auth.service.ts';

/** Nightly, Moscow time: drops sign-in, reset and invitation attempts no throttle looks at any more. */
export const pruneAuthAttemptsJob = defineJob({
  name: 'auth.prune-attempts',
  payload: z.object({}).passthrough(),
  cron: { expression: '17 3 * * *', tz: 'Europe/Moscow' },
  queue: { retryLimit: 2, retryDelay: 600, expireInSeconds: 900 },
  async handler(_job, { db, config, log }) {
    const deleted = await pruneOldAttempts({ db, config });
    if (deleted > 0) {
      log.info({ deleted }, 'old auth attempts pruned');
    }
  },
});
