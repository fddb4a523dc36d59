import { defineJob } from '../../../jobs/job-definition.ts';
import { recheckItemsMessage } from '../../../jobs/recheck-items-message.ts';
import { startScopedCheckRun } from '../runs/runs.service.ts';

/**
 * Checks some items again at once (a registered pledge package's vehicles). While another run of
 * the organisation is unfinished the job fails and pg-boss retries it later, with backoff.
 */
export const recheckItemsJob = defineJob({
  ...recheckItemsMessage,
  queue: { retryLimit: 20, retryDelay: 60, retryBackoff: true, expireInSeconds: 300 },
  async handler(job, { db, queue, config }) {
    const runId = await startScopedCheckRun({
      db,
      queue,
      config,
      organisationId: job.data.organisationId,
      trigger: job.data.reason,
      identifiers: job.data.identifiers,
    });
    if (!runId) {
      throw new Error('Другая проверка организации ещё идёт: повторная проверка ТС пакета отложена');
    }
  },
});
