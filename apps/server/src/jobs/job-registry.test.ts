import { describe, expect, it, onTestFinished } from 'vitest';
import { z } from 'zod';
import { withTransaction } from '../db/pool.ts';
import { buildTestApp } from '../testing/test-app.ts';
import { defineJob } from './job-definition.ts';
import { createBoss, createJobQueue, DEFAULT_HEARTBEAT_SECONDS, registerJobs } from './job-registry.ts';

const { app, config, connectionString } = await buildTestApp();

/** A queue of the test's own, stopped when the test ends. */
async function startBoss() {
  const boss = createBoss(connectionString, { schedule: false });
  boss.on('error', () => {});
  onTestFinished(() => boss.stop({ graceful: false }));
  await boss.start();
  const queue = createJobQueue(boss);
  return { boss, queue, context: { db: app.db, config, mailer: app.mailer, queue, log: app.log } };
}

describe('job batches', () => {
  it('one job of a batch that throws is retried alone; the others complete and are not redone', async () => {
    const runs: number[] = [];
    let failedOnce = false;
    const batchJob = defineJob({
      name: 'test.batch-settle',
      payload: z.object({ n: z.number() }),
      queue: { retryLimit: 2, retryDelay: 0 },
      batchSize: 4,
      async handler(job) {
        runs.push(job.data.n);
        if (job.data.n === 1 && !failedOnce) {
          failedOnce = true;
          throw new Error('the second job of the batch fails once');
        }
      },
    });
    const { boss, queue, context } = await startBoss();
    await registerJobs(boss, context, { work: false, definitions: [batchJob] });
    const ids: string[] = [];
    for (const n of [0, 1, 2, 3]) {
      ids.push((await queue.send(batchJob, { n }))!);
    }
    // All four are queued before the consumer starts, so its first fetch takes them as one batch.
    await registerJobs(boss, context, { work: true, definitions: [batchJob] });

    const states = async () =>
      Promise.all(ids.map(async (id) => (await boss.getJobById(batchJob.name, id))?.state));
    await expect.poll(states, { timeout: 20_000, interval: 200 }).toEqual(Array(4).fill('completed'));
    // The first attempt ran all four (one batch); only the failed one ran again.
    expect(runs.slice(0, 4).sort()).toEqual([0, 1, 2, 3]);
    expect(runs.slice(4)).toEqual([1]);
    const retries = await Promise.all(
      ids.map(async (id) => (await boss.getJobById(batchJob.name, id))?.retryCount),
    );
    expect(retries).toEqual([0, 1, 0, 0]);
  });

  it('a queue created under an older policy takes the current one; every queue heartbeats', async () => {
    const { boss, context } = await startBoss();
    // As an earlier release created it: fewer retries, a long expiry and no heartbeat.
    await boss.createQueue('test.policy', { retryLimit: 1, expireInSeconds: 3600 });
    const definition = defineJob({
      name: 'test.policy',
      payload: z.object({}),
      queue: { retryLimit: 5, retryDelay: 7, expireInSeconds: 600 },
      async handler() {},
    });
    await registerJobs(boss, context, { work: false, definitions: [definition] });
    expect(await boss.getQueue('test.policy')).toMatchObject({
      retryLimit: 5,
      retryDelay: 7,
      expireInSeconds: 600,
      heartbeatSeconds: DEFAULT_HEARTBEAT_SECONDS,
      // Announced by NOTIFY from now on, though created without it.
      notify: true,
    });
    // A definition's own heartbeat wins.
    await registerJobs(boss, context, {
      work: false,
      definitions: [{ ...definition, queue: { ...definition.queue, heartbeatSeconds: 30 } }],
    });
    expect((await boss.getQueue('test.policy'))?.heartbeatSeconds).toBe(30);
  });

  it('a job sent in a transaction is taken as soon as it commits, not at the next poll', async () => {
    const handled: number[] = [];
    const definition = defineJob({
      name: 'test.wake-on-commit',
      payload: z.object({ n: z.number() }),
      async handler(job) {
        handled.push(job.data.n);
      },
    });
    const { boss, queue, context } = await startBoss();
    // A poll of a minute: only the queue's NOTIFY can bring the job within the wait below.
    await registerJobs(boss, context, { work: true, definitions: [definition], pollingSeconds: 60 });
    // The consumer's first fetch (at start, empty) is over before the job exists.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await withTransaction(app.db, async (tx) => {
      await queue.send(definition, { n: 1 }, { db: tx });
      // Not before the commit: the consumer is woken by the commit, not by the insert.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(handled).toEqual([]);
    });
    await expect.poll(() => handled, { timeout: 15_000, interval: 100 }).toEqual([1]);
  });
});
