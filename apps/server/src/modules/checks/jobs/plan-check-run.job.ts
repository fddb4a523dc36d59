import { defineJob } from '../../../jobs/job-definition.ts';
import { updateRun } from '../runs/runs.queries.ts';
import { planCheckRun } from '../runs/runs.service.ts';
import { planCheckRunMessage } from './check-job-messages.ts';

/** Cuts a new check run into batches and queues them (kept off the HTTP request: a million items take a second). */
export const planCheckRunJob = defineJob({
  ...planCheckRunMessage,
  queue: { retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: 300 },
  async handler(job, { db, queue, config, log }) {
    try {
      await planCheckRun({ db, queue, config, runId: job.data.runId });
    } catch (error) {
      // A run that can never be planned must not stay «queued»: it would block every later run.
      if (job.retryCount >= job.retryLimit) {
        log.error({ err: error, runId: job.data.runId }, 'check run could not be planned');
        await updateRun(db, job.data.runId, {
          status: 'failed',
          finished_at: new Date(),
          error: 'Не удалось подготовить проверку. Запустите её ещё раз',
        });
      }
      throw error;
    }
  },
  // Two runs of the planning ended their process: the run fails instead of blocking every later run.
  async quarantine(job, { db }) {
    await updateRun(db, job.data.runId, {
      status: 'failed',
      finished_at: new Date(),
      error: 'Подготовка проверки дважды прервала работу процесса; запустите проверку ещё раз',
    });
  },
});
