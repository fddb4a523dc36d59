import { defineJob } from '../../../jobs/job-definition.ts';
import { dropSupersededList } from '../passport-list/passport-list.service.ts';
import { dropSupersededListMessage } from './check-job-messages.ts';

/**
 * A superseded passport list version's table dropped after its grace period (queued by the import's
 * switch, SUPERSEDED_LIST_GRACE_S later). A persisted job: a stop or a restart in between still
 * drops it.
 */
export const dropSupersededListJob = defineJob({
  ...dropSupersededListMessage,
  queue: { retryLimit: 5, retryDelay: 60 },
  async handler(job, { db }) {
    await dropSupersededList(db, job.data.table);
  },
});
