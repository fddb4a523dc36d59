import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { bearer, buildTestApp, createSignedInUser } from '../../../testing/test-app.ts';
import { planCheckRunJob } from './plan-check-run.job.ts';

const { app, config } = await buildTestApp();

describe('checks.plan-run job', () => {
  it('marks a run failed after its last planning attempt, so a new run can start', async () => {
    const user = await createSignedInUser(app, { role: 'admin' });
    const start = () =>
      app.inject({ method: 'POST', url: '/api/v1/monitoring/check-runs', headers: bearer(user.token) });
    const first = await start();
    expect(first.statusCode).toBe(202);
    expect((await start()).statusCode).toBe(409);

    // A database whose transactions fail (planning runs in one) but whose plain queries work.
    const flaky = {
      query: (...args: Parameters<pg.Pool['query']>) => app.db.query(...args),
      connect: () => Promise.reject(new Error('planning failed')),
    } as unknown as pg.Pool;
    const context = { db: flaky, config, mailer: app.mailer, queue: app.queue, log: app.log };
    const run = { id: 'job', data: { runId: first.json().id }, retryCount: 3, retryLimit: 3 };
    await expect(planCheckRunJob.handler(run, context)).rejects.toThrow('planning failed');

    const status = await app.db.query('SELECT status, error FROM check_runs WHERE id = $1', [
      first.json().id,
    ]);
    expect(status.rows[0]).toEqual({
      status: 'failed',
      error: 'Не удалось подготовить проверку. Запустите её ещё раз',
    });
    expect((await start()).statusCode).toBe(202);
  });
});
