import { z } from 'zod';
import { defineJob } from '../../../jobs/job-definition.ts';
import { sendDueDigests } from '../notifications.service.ts';

/**
 * Every minute (Moscow time): the per-run digests of check runs that have finished, and the daily
 * digests whose hour has come. Running it again in the same minute or hour creates nothing new.
 */
export const notificationDigestsJob = defineJob({
  name: 'notifications.digests',
  payload: z.object({}).passthrough(),
  cron: { expression: '* * * * *', tz: 'Europe/Moscow' },
  queue: { retryLimit: 2, retryDelay: 30, expireInSeconds: 300 },
  async handler(_job, { db, queue, log }) {
    const created = await sendDueDigests({ db, queue });
    if (created > 0) {
      log.info({ deliveries: created }, 'notification digests queued');
    }
  },
});
