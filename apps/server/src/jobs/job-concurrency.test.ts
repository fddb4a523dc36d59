import type { PgBoss } from 'pg-boss';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfig } from '../config/env.ts';
import {
  APP_CHECK_BATCH_CONCURRENCY,
  checkBatchConcurrency,
  checkBatchJob,
  WORKER_CHECK_BATCH_CONCURRENCY,
} from '../modules/checks/jobs/check-batch.job.ts';
import { importUploadJob } from '../modules/uploads/jobs/import-upload.job.ts';
import { validateUploadJob } from '../modules/uploads/jobs/validate-upload.job.ts';
import { defineJob, type JobContext } from './job-definition.ts';
import { createSlots, registerJobs } from './job-registry.ts';

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
    expect(await consumerOptions({}, 'app')).toMatchObject({ localConcurrency: 1, batchSize: 1 });
    expect(await consumerOptions({}, undefined)).toMatchObject({ localConcurrency: 1 });
    expect(await consumerOptions({}, 'worker')).toMatchObject({ localConcurrency: 3, batchSize: 1 });
    expect(await consumerOptions({ CHECK_BATCH_CONCURRENCY: '4' }, 'app')).toMatchObject({
      localConcurrency: 4,
    });
    expect(await consumerOptions({ CHECK_BATCH_CONCURRENCY: '2' }, 'worker')).toMatchObject({
      localConcurrency: 2,
    });
    // One batch per fetch: a killed worker holds no batch it has not begun.
    expect(await consumerOptions({}, 'worker')).not.toHaveProperty('burstWhenBatchFull');
  });
});

describe('heavy jobs in the app process', () => {
  /** Starts two heavy queues' consumers (three jobs each) and returns how many ran at once at most. */
  async function mostAtOnce(host: 'app' | 'worker', env: NodeJS.ProcessEnv = {}): Promise<number> {
    const consumers: ((
      jobs: { id: string; data: unknown; retryCount: number; retryLimit: number }[],
    ) => Promise<void>)[] = [];
    const boss = {
      createQueue: async () => {},
      updateQueue: async () => {},
      schedule: async () => {},
      work: async (name: string, _options: unknown, handler: (typeof consumers)[number]) => {
        consumers.push(handler);
        return name;
      },
    } as unknown as PgBoss;
    let running = 0;
    let most = 0;
    const heavyJob = (name: string) =>
      defineJob({
        name,
        payload: z.object({}),
        heavy: true,
        async handler() {
          running++;
          most = Math.max(most, running);
          await new Promise((resolve) => setTimeout(resolve, 20));
          running--;
        },
      });
    await registerJobs(boss, { config: loadConfig(env) } as JobContext, {
      work: true,
      host,
      definitions: [heavyJob('test.heavy-a'), heavyJob('test.heavy-b')],
    });
    const job = (id: string) => [{ id, data: {}, retryCount: 0, retryLimit: 0 }];
    await Promise.all(consumers.flatMap((consume) => ['1', '2', '3'].map((id) => consume(job(id)))));
    return most;
  }

  it('run one at a time across queues in the app (APP_HEAVY_JOBS), as their queues allow in a worker', async () => {
    expect(await mostAtOnce('app')).toBe(1);
    expect(await mostAtOnce('app', { APP_HEAVY_JOBS: '2' })).toBe(2);
    expect(await mostAtOnce('worker')).toBe(6);
  });

  it('check batches and upload jobs are the heavy ones', () => {
    expect(checkBatchJob.heavy).toBe(true);
    expect(validateUploadJob.heavy).toBe(true);
    expect(importUploadJob.heavy).toBe(true);
  });
});

describe('createSlots', () => {
  it('hands a freed slot to the first in line and frees it when a work throws', async () => {
    const slots = createSlots(1);
    const order: string[] = [];
    const work = (name: string, fail = false) =>
      slots(async () => {
        order.push(`start ${name}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        order.push(`end ${name}`);
        if (fail) {
          throw new Error(name);
        }
        return name;
      });
    const results = await Promise.allSettled([work('a', true), work('b'), work('c')]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect(order).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });
});
