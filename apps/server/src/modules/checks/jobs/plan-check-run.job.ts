import { z } from 'zod';
import { defineJob } from '../../../jobs/job-definition.ts';
import { planCheckRun } from '../runs/runs.service.ts';

/** Cuts a new check run into batches and queues them (kept off the HTTP request: a million items take a second). */
export const planCheckRunJob = defineJob({
  name: 'checks.plan-run',
  payload: z.object({ runId: z.uuid() }),
  queue: { retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: 300 },
  async handler(job, { db, queue }) {
    await planCheckRun({ db, queue, runId: job.data.runId });
  },
});
