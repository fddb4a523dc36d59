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
