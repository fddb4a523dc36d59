import { z } from 'zod';
import { defineJob } from '../../../jobs/job-definition.ts';
import {
  completeImport,
  IMPORT_QUARANTINED_MESSAGE,
  importedUpload,
  importUpload,
  quarantineUpload,
  settleImport,
} from '../upload-pipeline.ts';

/** Moves a validated upload's staged rows into place in one transaction, then the kind's after-work. */
export const importUploadJob = defineJob({
  name: 'uploads.import',
  payload: z.object({ uploadId: z.string().uuid() }),
  queue: { retryLimit: 3, retryDelay: 10, retryBackoff: true, expireInSeconds: 3600 },
  heavy: true,
  async handler(job, { db, config, log }) {
    const context = { db, config };
    // A retry finds the upload already imported when the last attempt stopped past the commit (a
    // crash, or completeImport failing): the deferred work is done again, it is idempotent.
    const upload =
      (await importUpload(context, job.data.uploadId, { lastAttempt: job.retryCount >= job.retryLimit })) ??
      (await importedUpload(context, job.data.uploadId));
    if (upload) {
      await completeImport(context, upload);
      // The rows are in: a failed merge (e.g. a role that does not own the index) only leaves
      // searches slower until autovacuum merges the list, so it is logged, not retried.
      await settleImport(context, upload).catch((error: unknown) => {
        log.warn({ err: error, uploadId: job.data.uploadId }, 'search index merge after import failed');
      });
    }
  },
  async quarantine(job, { db, config }) {
    await quarantineUpload({ db, config }, job.data.uploadId, IMPORT_QUARANTINED_MESSAGE);
  },
});
