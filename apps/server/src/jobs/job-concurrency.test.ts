import type { PgBoss } from 'pg-boss';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/env.ts';
import {
  APP_CHECK_BATCH_CONCURRENCY,
  checkBatchConcurrency,
  checkBatchJob,
  WORKER_CHECK_BATCH_CONCURRENCY,
} from '../modules/checks/jobs/check-batch.job.ts';
import type { JobContext } from './job-definition.ts';
import { registerJobs } from './job-registry.ts';

/** The options each queue's consumer was started with, from a stand-in for pg-boss. */
async function consumerOptions(
  env: NodeJS.ProcessEnv,
  host: 'app' | 'worker' | undefined,
): Promise<Record<string, unknown>> {
  const started = new Map<string, Record<string, unknown>>();
  const boss = {
    createQueue: async () => {},
    updateQueue: async () => {},
    schedule: async () => {},
    work: async (name: string, options: Record<string, unknown>) => {
      started.set(name, options);
      return name;
    },
  } as unknown as PgBoss;
  const config = loadConfig(env);
  await registerJobs(boss, { config } as JobContext, {
    work: true,
    definitions: [checkBatchJob],
    ...(host ? { host } : {}),
  });
  return started.get(checkBatchJob.name)!;
}

describe('check batches at a time', () => {
  it('the app process runs fewer than a job-only worker, unless CHECK_BATCH_CONCURRENCY says', () => {
    expect(APP_CHECK_BATCH_CONCURRENCY).toBe(1);
    expect(WORKER_CHECK_BATCH_CONCURRENCY).toBe(3);
    expect(checkBatchConcurrency({}, 'app')).toBe(1);
    expect(checkBatchConcurrency({}, 'worker')).toBe(3);
    expect(checkBatchConcurrency({ checkBatchConcurrency: 5 }, 'app')).toBe(5);
    expect(checkBatchConcurrency({ checkBatchConcurrency: 2 }, 'worker')).toBe(2);
  });

  it('is what the queue consumer is started with in each process', async () => {
    expect(await consumerOptions({}, 'app')).toMatchObject({ localConcurrency: 1, batchSize: 4 });
    expect(await consumerOptions({}, undefined)).toMatchObject({ localConcurrency: 1 });
    expect(await consumerOptions({}, 'worker')).toMatchObject({ localConcurrency: 3, batchSize: 4 });
    expect(await consumerOptions({ CHECK_BATCH_CONCURRENCY: '4' }, 'app')).toMatchObject({
      localConcurrency: 4,
    });
    expect(await consumerOptions({ CHECK_BATCH_CONCURRENCY: '2' }, 'worker')).toMatchObject({
      localConcurrency: 2,
    });
    // Other tuning passes through as before.
    expect(await consumerOptions({}, 'worker')).toMatchObject({ burstWhenBatchFull: true });
  });
});
