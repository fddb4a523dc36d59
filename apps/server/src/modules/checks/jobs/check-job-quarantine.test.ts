import { describe, expect, it, vi } from 'vitest';
import { itemLastCheckedSql } from '../../../db/item-last-check.ts';
import type { JobContext } from '../../../jobs/job-definition.ts';
import { bearer, buildTestApp, createSignedInUser } from '../../../testing/test-app.ts';
import { addItems, randomVin, startPlannedRun } from '../testing/checks-test-helpers.ts';
import { BATCH_GIVEN_UP_MESSAGE, BATCH_QUARANTINED_MESSAGE, checkBatchJob } from './check-batch.job.ts';
import { planCheckRunJob } from './plan-check-run.job.ts';

/** Whether the batch service throws an error of its own (not a source's failure) on every attempt. */
const broken = vi.hoisted(() => ({ on: false }));
vi.mock('../runs/check-batch.service.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../runs/check-batch.service.ts')>();
  return {
    ...original,
    processCheckBatch: async (options: Parameters<typeof original.processCheckBatch>[0]) => {
      if (broken.on) {
        throw new Error('duplicate key value violates unique constraint');
      }
      return original.processCheckBatch(options);
    },
  };
});

const { app, config } = await buildTestApp({ config: { checkBatchSize: 2 } });
const context = { db: app.db, config, queue: app.queue, log: app.log, mailer: app.mailer } as JobContext;
const job = <T>(data: T, retryCount = 0) => ({ id: 'job', data, retryCount, retryLimit: 4 });

/** A new organisation's run over three VINs, planned into two batches whose jobs the test runs. */
async function plannedRunOfTwoBatches() {
  const user = await createSignedInUser(app, { role: 'admin' });
  await addItems(
    app,
    user.organisationId,
    [1, 2, 3].map(() => ({ kind: 'vin' as const, identifier: randomVin('XTA') })),
  );
  const { runId, batchNos } = await startPlannedRun(app, config, user.token);
  expect(batchNos.length).toBe(2);
  return { user, runId, batchNos };
}

describe('check jobs whose runs ended their process twice (quarantined, #27)', () => {
  it('a quarantined batch ends failed with a reason, its items stay due, and the run still ends', async () => {
    const { user, runId, batchNos } = await plannedRunOfTwoBatches();
    await checkBatchJob.quarantine!(job({ runId, batchNo: batchNos[0]! }), context);
    await checkBatchJob.handler(job({ runId, batchNo: batchNos[1]! }), context);

    const run = await app.inject({
      method: 'GET',
      url: `/api/v1/monitoring/check-runs/${runId}`,
      headers: bearer(user.token),
    });
    expect(run.json<{ status: string }>().status).toBe('completed_with_errors');
    const { rows } = await app.db.query<{
      sources: Record<string, { status: string; error: string; retryable: boolean }>;
    }>('SELECT sources FROM check_run_batches WHERE run_id = $1 AND batch_no = $2', [runId, batchNos[0]!]);
    const states = Object.values(rows[0]!.sources);
    expect(states.length).toBeGreaterThan(0);
    expect(
      states.every(
        (state) => state.status === 'failed' && !state.retryable && state.error === BATCH_QUARANTINED_MESSAGE,
      ),
    ).toBe(true);
    // The quarantined range was not checked: its two items have no last check; the other batch's has.
    const { rows: checked } = await app.db.query<{ checked: number; unchecked: number }>(
      `SELECT count(*) FILTER (WHERE ${itemLastCheckedSql('i.id')} IS NOT NULL)::int AS checked,
              count(*) FILTER (WHERE ${itemLastCheckedSql('i.id')} IS NULL)::int AS unchecked
         FROM monitoring_items i WHERE i.organisation_id = $1`,
      [user.organisationId],
    );
    expect(checked[0]).toEqual({ checked: 1, unchecked: 2 });
    // Quarantining it again (a late duplicate) changes nothing.
    await checkBatchJob.quarantine!(job({ runId, batchNo: batchNos[0]! }), context);
    const again = await app.db.query<{ batches_done: number }>(
      'SELECT batches_done FROM check_runs WHERE id = $1',
      [runId],
    );
    expect(again.rows[0]!.batches_done).toBe(2);
  });

  it('a quarantined planning fails its run, so a new run can start', async () => {
    const user = await createSignedInUser(app, { role: 'admin' });
    await addItems(app, user.organisationId, [{ kind: 'vin', identifier: randomVin('XTA') }]);
    const start = () =>
      app.inject({ method: 'POST', url: '/api/v1/monitoring/check-runs', headers: bearer(user.token) });
    const first = await start();
    await planCheckRunJob.quarantine!(job({ runId: first.json<{ id: string }>().id }), context);
    const { rows } = await app.db.query('SELECT status, error FROM check_runs WHERE id = $1', [
      first.json<{ id: string }>().id,
    ]);
    expect(rows[0]).toMatchObject({ status: 'failed', error: expect.stringContaining('дважды прервала') });
    expect((await start()).statusCode).toBe(202);
  });
});

describe('a check batch whose every attempt fails other than by a source', () => {
  it('is retried while attempts remain, then ends failed for its sources and the run ends', async () => {
    const { user, runId, batchNos } = await plannedRunOfTwoBatches();
    const [first, second] = batchNos.map((batchNo) => ({ runId, batchNo }));
    const status = async () =>
      (
        await app.inject({
          method: 'GET',
          url: `/api/v1/monitoring/check-runs/${runId}`,
          headers: bearer(user.token),
        })
      ).json<{ status: string }>().status;

    await checkBatchJob.handler(job(second!), context);
    broken.on = true;
    // An attempt with retries left fails for the queue to retry; the batch stays to be done.
    await expect(checkBatchJob.handler(job(first!, 1), context)).rejects.toThrow('duplicate key');
    expect(await status()).toBe('running');
    // The last attempt fails too: the batch is given up with a reason, and the run is over.
    await expect(checkBatchJob.handler(job(first!, 4), context)).rejects.toThrow('duplicate key');
    broken.on = false;
    expect(await status()).toBe('completed_with_errors');
    const { rows } = await app.db.query<{
      status: string;
      sources: Record<string, { status: string; error: string }>;
    }>('SELECT status, sources FROM check_run_batches WHERE run_id = $1 AND batch_no = $2', [
      runId,
      first!.batchNo,
    ]);
    expect(rows[0]!.status).toBe('done');
    const states = Object.values(rows[0]!.sources);
    expect(states.length).toBeGreaterThan(0);
    expect(states.every((state) => state.status === 'failed' && state.error === BATCH_GIVEN_UP_MESSAGE)).toBe(
      true,
    );
  });
});
