import { z } from 'zod';
import { defineJob } from '../../../jobs/job-definition.ts';
import { startDueScheduledRuns } from '../runs/check-schedule.service.ts';

/** Every minute, Moscow time: starts the daily runs whose time has come (check_schedules). */
export const scheduledChecksJob = defineJob({
  name: 'checks.schedule-tick',
  payload: z.object({}).passthrough(),
  cron: { expression: '* * * * *', tz: 'Europe/Moscow' },
  queue: { retryLimit: 0, expireInSeconds: 120 },
  async handler(_job, context) {
    const started = await startDueScheduledRuns(context);
    if (started > 0) {
      context.log.info({ started }, 'scheduled check runs started');
    }
  },
});
