import { defineJob } from '../../../jobs/job-definition.ts';
import { abandonSourceImport, runSourceImport } from '../passport-list/passport-list.service.ts';
import { sourceImportMessage } from './check-job-messages.ts';

/**
 * A source's dataset file imported in the background (the MVD passport list: minutes for a hundred
 * million rows). A killed worker stops heartbeating and the queue runs the import again from its
 * file; the active version answers all along.
 */
export const sourceImportJob = defineJob({
  ...sourceImportMessage,
  queue: { retryLimit: 2, retryDelay: 30, expireInSeconds: 4 * 3600, heartbeatSeconds: 10 },
  heavy: true,
  async handler(job, { db, config, queue }) {
    await runSourceImport({
      db,
      config,
      importId: job.data.importId,
      lastAttempt: job.retryCount >= job.retryLimit,
      queue,
    });
  },
  // Given up for good: the import says so (else it would stay «importing» and block the daily fetch).
  async quarantine(job, { db }) {
    await abandonSourceImport({ db, importId: job.data.importId });
  },
});
