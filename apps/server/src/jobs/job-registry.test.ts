import pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import { z } from 'zod';
import { withTransaction } from '../db/pool.ts';
import { buildTestApp } from '../testing/test-app.ts';
import { defineJob } from './job-definition.ts';
import { createBoss, createJobQueue, DEFAULT_HEARTBEAT_SECONDS, registerJobs } from './job-registry.ts';
import { JOB_PROCESS_LOCK_CLASS } from './job-starts.ts';

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

  it('a job two of whose earlier runs ended their process is quarantined: the hook runs, the handler never', async () => {
    const handled: string[] = [];
    const quarantined: string[] = [];
    const definition = defineJob({
      name: 'test.crash-loop',
      payload: z.object({ key: z.string() }),
      queue: { retryLimit: 5, retryDelay: 0 },
      async handler(job) {
        handled.push(job.data.key);
      },
      async quarantine(job) {
        quarantined.push(job.data.key);
      },
    });
    const { boss, queue, context } = await startBoss();
    await registerJobs(boss, context, { work: false, definitions: [definition] });
    // A process still alive: it holds its liveness lock on a connection of its own.
    const alive = new pg.Client({ connectionString });
    await alive.connect();
    onTestFinished(() => alive.end());
    await alive.query('SELECT pg_advisory_lock($1, $2)', [JOB_PROCESS_LOCK_CLASS, 424242]);
    const earlier = async (jobId: string, processKey: number) =>
      app.db.query(
        `INSERT INTO job_starts (queue, job_id, process_key, process_label) VALUES ($1, $2, $3, 'test')`,
        [definition.name, jobId, processKey],
      );
    const dead = (await queue.send(definition, { key: 'dead twice' }))!;
    await earlier(dead, 111);
    await earlier(dead, 222);
    // One death and one run of a live process (a stall, not a death): not quarantined.
    const once = (await queue.send(definition, { key: 'dead once' }))!;
    await earlier(once, 333);
    await earlier(once, 424242);
    const registered = await registerJobs(boss, context, { work: true, definitions: [definition] });
    onTestFinished(() => registered.close());

    const state = async (id: string) => (await boss.getJobById(definition.name, id))?.state;
    await expect.poll(() => state(dead), { timeout: 20_000, interval: 200 }).toBe('completed');
    await expect.poll(() => state(once), { timeout: 20_000, interval: 200 }).toBe('completed');
    expect(quarantined).toEqual(['dead twice']);
    expect(handled).toEqual(['dead once']);
    const { rows } = await app.db.query<{ job_id: string; outcome: string | null }>(
      `SELECT job_id, outcome FROM job_starts WHERE job_id = ANY($1) AND process_label <> 'test'`,
      [[dead, once]],
    );
    expect(rows).toEqual(
      expect.arrayContaining([
        { job_id: dead, outcome: 'quarantined' },
        { job_id: once, outcome: 'done' },
      ]),
    );
    expect(rows).toHaveLength(2);
  });
});
