import { z } from 'zod';
import { defineJobMessage } from '../../../jobs/job-definition.ts';

/**
 * The check jobs' names and payloads, apart from their handlers: the runs service enqueues these
 * while the job definitions (which call the runs service) add retry policy and handler.
 */
export const planCheckRunMessage = defineJobMessage({
  name: 'checks.plan-run',
  payload: z.object({ runId: z.uuid() }),
});

export const checkBatchMessage = defineJobMessage({
  name: 'checks.batch',
  payload: z.object({ runId: z.uuid(), batchNo: z.number().int().min(0) }),
});

/**
 * A passport list version's table superseded by a newer version, dropped a grace period after the
 * switch (a check that read the old version just before it still finds its table).
 */
export const dropSupersededListMessage = defineJobMessage({
  name: 'checks.drop-superseded-list',
  payload: z.object({ table: z.string().regex(/^passport_list_[0-9a-f]{32}$/) }),
});

/** A queued import of a source's dataset file (the passport list), run in the background. */
export const sourceImportMessage = defineJobMessage({
  name: 'checks.source-import',
  payload: z.object({ importId: z.uuid() }),
});
