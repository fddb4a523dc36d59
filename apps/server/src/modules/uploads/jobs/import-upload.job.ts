import { z } from 'zod';
import { defineJob } from '../../../jobs/job-definition.ts';
import { importUpload } from '../upload-pipeline.ts';

/** Moves a validated upload's staged rows into place in one transaction. */
export const importUploadJob = defineJob({
  name: 'uploads.import',
  payload: z.object({ uploadId: z.string().uuid() }),
  queue: { retryLimit: 3, retryDelay: 10, retryBackoff: true, expireInSeconds: 3600 },
  async handler(job, { db, config }) {
    await importUpload({ db, config }, job.data.uploadId, { lastAttempt: job.retryCount >= job.retryLimit });
  },
});
