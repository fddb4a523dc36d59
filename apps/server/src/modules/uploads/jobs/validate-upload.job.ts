import { z } from 'zod';
import { defineJob } from '../../../jobs/job-definition.ts';
import { quarantineUpload, VALIDATE_QUARANTINED_MESSAGE, validateUpload } from '../upload-pipeline.ts';
import { importUploadJob } from './import-upload.job.ts';

/** Reads and checks an uploaded file into staging; auto-confirmed uploads go on to the import. */
export const validateUploadJob = defineJob({
  name: 'uploads.validate',
  payload: z.object({ uploadId: z.string().uuid() }),
  queue: { retryLimit: 2, retryDelay: 10, retryBackoff: true, expireInSeconds: 3600 },
  heavy: true,
  async handler(job, { db, config, queue }) {
    await validateUpload({ db, config }, job.data.uploadId, {
      lastAttempt: job.retryCount >= job.retryLimit,
      onValidated: async (tx, upload) => {
        await queue.send(importUploadJob, { uploadId: upload.id }, { db: tx });
      },
    });
  },
  async quarantine(job, { db, config }) {
    await quarantineUpload({ db, config }, job.data.uploadId, VALIDATE_QUARANTINED_MESSAGE);
  },
});
