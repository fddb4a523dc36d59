import { describe, expect, it } from 'vitest';
import { itemLastCheckedSql } from '../../../db/item-last-check.ts';
import type { JobContext } from '../../../jobs/job-definition.ts';
import { bearer, buildTestApp, createSignedInUser } from '../../../testing/test-app.ts';
import { planCheckRun } from '../runs/runs.service.ts';
import { addItems, randomVin } from '../testing/checks-test-helpers.ts';
import { BATCH_QUARANTINED_MESSAGE, checkBatchJob } from './check-batch.job.ts';
import { planCheckRunJob } from './plan-check-run.job.ts';

const { app, config } = await buildTestApp({ config: { checkBatchSize: 2 } });
const context = { db: app.db, config, queue: app.queue, log: app.log, mailer: app.mailer } as JobContext;
const job = <T>(data: T) => ({ id: 'job', data, retryCount: 0, retryLimit: 4 });

describe('check jobs whose runs ended their process twice (quarantined, #27)', () => {
  it('a quarantined batch ends failed with a reason, its items stay due, and the run still ends', async () => {
    const user = await createSignedInUser(app, { role: 'admin' });
    await addItems(
      app,
      user.organisationId,
      [1, 2, 3].map(() => ({ kind: 'vin' as const, identifier: randomVin('XTA') })),
    );
    const started = await app.inject({
      method: 'POST',
      url: '/api/v1/monitoring/check-runs',
      headers: bearer(user.token),
    });
    const runId = started.json<{ id: string }>().id;
    await planCheckRun({ db: app.db, queue: app.queue, config, runId });
    const { rows: batches } = await app.db.query<{ batch_no: number }>(
      'SELECT batch_no FROM check_run_batches WHERE run_id = $1 ORDER BY batch_no',
      [runId],
    );
    expect(batches.length).toBe(2);
    await checkBatchJob.quarantine!(job({ runId, batchNo: batches[0]!.batch_no }), context);
    await checkBatchJob.handler(job({ runId, batchNo: batches[1]!.batch_no }), context);

    const run = await app.inject({
      method: 'GET',
      url: `/api/v1/monitoring/check-runs/${runId}`,
      headers: bearer(user.token),
    });
    expect(run.json<{ status: string }>().status).toBe('completed_with_errors');
    const { rows } = await app.db.query<{
      sources: Record<string, { status: string; error: string; retryable: boolean }>;
    }>('SELECT sources FROM check_run_batches WHERE run_id = $1 AND batch_no = $2', [
      runId,
      batches[0]!.batch_no,
    ]);
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
    await checkBatchJob.quarantine!(job({ runId, batchNo: batches[0]!.batch_no }), context);
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
