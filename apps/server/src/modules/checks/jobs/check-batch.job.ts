import { defineJob } from '../../../jobs/job-definition.ts';
import { processCheckBatch } from '../runs/check-batch.service.ts';
import { checkBatchMessage } from './check-job-messages.ts';

/**
 * One batch of a check run against every source. The heartbeat lets the queue notice a worker
 * that died mid-batch and hand the batch to another; replays are harmless (see processCheckBatch).
 */
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
  // Three batches at a time per process (a batch waits on round trips and commits part of the
  // time: two left the two cores idle a third of the time), and no poll delay while batches keep coming.
  batchSize: 4,
  work: { localConcurrency: 3, burstWhenBatchFull: true },
  async handler(job, { db, config, queue, timings }) {
    await processCheckBatch({
      db,
      config,
      queue,
      runId: job.data.runId,
      batchNo: job.data.batchNo,
      lastAttempt: job.retryCount >= job.retryLimit,
      timings,
    });
  },
});
