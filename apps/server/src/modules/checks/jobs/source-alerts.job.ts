import { z } from 'zod';
import { defineJob } from '../../../jobs/job-definition.ts';
import { checkSourceAlerts } from '../sources/source-alerts.ts';

/**
 * Every minute: source failure and staleness alerts (notification rules with subject
 * source_failure / source_stale). One alert per episode, however often it runs.
 */
export const sourceAlertsJob = defineJob({
  name: 'checks.source-alerts',
  payload: z.object({}).passthrough(),
  cron: { expression: '* * * * *', tz: 'Europe/Moscow' },
  queue: { retryLimit: 0, expireInSeconds: 120 },
  async handler(_job, { db, queue, config, log }) {
    const created = await checkSourceAlerts({ db, queue, config });
    if (created > 0) {
      log.info({ deliveries: created }, 'source alerts queued');
    }
  },
});
