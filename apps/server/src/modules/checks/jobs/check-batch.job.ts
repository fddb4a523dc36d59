import { SOURCE_TYPE_CODES } from '@pledgewatch/contract';
import type { AppConfig } from '../../../config/env.ts';
import { defineJob, type JobHost } from '../../../jobs/job-definition.ts';
import { processCheckBatch } from '../runs/check-batch.service.ts';
import { quarantineBatch } from '../runs/runs.queries.ts';
import { checkBatchMessage } from './check-job-messages.ts';

/** Batches a worker process runs at a time when CHECK_BATCH_CONCURRENCY is not set. */
export const WORKER_CHECK_BATCH_CONCURRENCY = 3;
/** The same in the app process, which answers the API too. */
export const APP_CHECK_BATCH_CONCURRENCY = 1;

/**
 * Batches at a time in this process. A job-only worker runs three (a batch waits on round trips and
 * commits part of the time: two left the two cores idle a third of the time). The app runs one: each
 * batch's queries keep a core busy for seconds, and three of them took both cores of a 2-core machine
 * from the API's requests (p99 of the main screens 3.1 s under a run, against 1.5 s without one).
 */
export function checkBatchConcurrency(
  config: Pick<AppConfig, 'checkBatchConcurrency'>,
  host: JobHost,
): number {
  return (
    config.checkBatchConcurrency ??
    (host === 'worker' ? WORKER_CHECK_BATCH_CONCURRENCY : APP_CHECK_BATCH_CONCURRENCY)
  );
}

/**
 * One batch of a check run against every source. The heartbeat lets the queue notice a worker
 * that died mid-batch and hand the batch to another; replays are harmless (see processCheckBatch).
 */
/** What the run shows for a batch given up after its runs ended their process twice. */
export const BATCH_QUARANTINED_MESSAGE =
  'Проверка этой части портфеля дважды прервала работу процесса и остановлена; объекты проверятся в следующий раз';

/** What the run shows for a batch whose every attempt failed other than by a source's failure. */
export const BATCH_GIVEN_UP_MESSAGE =
  'Проверка этой части портфеля не удалась после всех повторов; объекты проверятся в следующий раз';

export const checkBatchJob = defineJob({
  ...checkBatchMessage,
  queue: {
    retryLimit: 4,
    retryDelay: 3,
    retryBackoff: true,
    retryDelayMax: 600,
    expireInSeconds: 1800,
    heartbeatSeconds: 10,
  },
  // One batch per fetch: a process holds only the batches it runs, so a killed worker costs those
  // alone. With four per fetch (three loops: up to twelve, all of an 11-batch run) the batches it had
  // fetched and not begun waited for its heartbeat to lapse and were retried, while the other
  // worker's loops sat idle. A batch (CHECK_BATCH_SIZE items) outlasts the poll interval, so the
  // next fetch follows at once (pg-boss skips the delay after a job longer than the interval).
  heavy: true,
  work: { localConcurrency: checkBatchConcurrency },
  async handler(job, { db, config, queue, timings }) {
    const lastAttempt = job.retryCount >= job.retryLimit;
    try {
      await processCheckBatch({
        db,
        config,
        queue,
        runId: job.data.runId,
        batchNo: job.data.batchNo,
        lastAttempt,
        timings,
      });
    } catch (error) {
      // A source's failures are recorded on the last attempt; anything else thrown then (a bug, the
      // database) would leave the batch queued and its run «running» for ever: the queue gives the
      // batch up, so it ends failed for its sources and the run still ends.
      if (lastAttempt) {
        await quarantineBatch(db, {
          runId: job.data.runId,
          batchNo: job.data.batchNo,
          sourceTypes: SOURCE_TYPE_CODES,
          error: BATCH_GIVEN_UP_MESSAGE,
        });
      }
      throw error;
    }
  },
  // Two runs of this batch ended their process: the batch ends failed for its sources, the run goes on.
  async quarantine(job, { db }) {
    await quarantineBatch(db, {
      runId: job.data.runId,
      batchNo: job.data.batchNo,
      sourceTypes: SOURCE_TYPE_CODES,
      error: BATCH_QUARANTINED_MESSAGE,
    });
  },
});
