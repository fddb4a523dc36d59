import { z } from 'zod';
import { defineJob } from '../../../jobs/job-definition.ts';
import { importUpload, settleImport } from '../upload-pipeline.ts';

/** Moves a validated upload's staged rows into place in one transaction, then the kind's after-work. */
export const importUploadJob = defineJob({
  name: 'uploads.import',
  payload: z.object({ uploadId: z.string().uuid() }),
  queue: { retryLimit: 3, retryDelay: 10, retryBackoff: true, expireInSeconds: 3600 },
  heavy: true,
  async handler(job, { db, config, log }) {
    const context = { db, config };
    const kind = await importUpload(context, job.data.uploadId, {
      lastAttempt: job.retryCount >= job.retryLimit,
    });
    if (kind) {
      // The rows are in: a failed merge (e.g. a role that does not own the index) only leaves
      // searches slower until autovacuum merges the list, so it is logged, not retried.
      await settleImport(context, kind).catch((error: unknown) => {
        log.warn({ err: error, uploadId: job.data.uploadId }, 'search index merge after import failed');
      });
    }
  },
});
