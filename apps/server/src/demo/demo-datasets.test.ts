import { expect, it } from 'vitest';
import { processCheckBatch } from '../modules/checks/runs/check-batch.service.ts';
import { listBatchNumbers } from '../modules/checks/runs/runs.queries.ts';
import { planCheckRun, startCheckRun } from '../modules/checks/runs/runs.service.ts';
import { bearer, buildTestApp, signIn } from '../testing/test-app.ts';
import { DEMO_PLEDGED_VIN } from './demo-datasets.ts';
import { DEMO_ACCOUNTS, DEMO_ORGANISATION, seedDemo } from './demo-seed.ts';

const { app, config } = await buildTestApp();

it('gives the demo organisation real, labelled events on its first run and a known pledged VIN', {
  timeout: 120_000,
}, async () => {
  await seedDemo(app.db);
  const { rows } = await app.db.query<{ id: string }>('SELECT id FROM organisations WHERE name = $1', [
    DEMO_ORGANISATION,
  ]);
  const organisationId = rows[0]!.id;
  const run = await startCheckRun({
    db: app.db,
    config,
    queue: app.queue,
    organisationId,
    trigger: 'manual',
    userId: null,
  });
  await planCheckRun({ db: app.db, queue: app.queue, runId: run.id });
  for (const batchNo of await listBatchNumbers(app.db, run.id)) {
    await processCheckBatch({
      db: app.db,
      config,
      queue: app.queue,
      runId: run.id,
      batchNo,
      lastAttempt: true,
    });
  }
  const token = await signIn(app, DEMO_ACCOUNTS[1].email, DEMO_ACCOUNTS[1].password);
  const eventsOf = async (query: string) =>
    (
      await app.inject({
        method: 'GET',
        url: `/api/v1/monitoring/events/items?${query}`,
        headers: bearer(token),
      })
    ).json();
  for (const type of [
    'pledge_registered_other',
    'wanted_added',
    'restriction_added',
    'accident_recorded',
    'bankruptcy_opened',
  ]) {
    expect((await eventsOf(`type=${type}`)).total).toBeGreaterThan(0);
  }
  const all = await eventsOf('pageSize=1');
  expect(all.unread).toBe(all.total);
  expect((await eventsOf('pageSize=500')).items.every((event: { demo: boolean }) => event.demo)).toBe(true);
  const finished = (
    await app.inject({
      method: 'GET',
      url: `/api/v1/monitoring/check-runs/${run.id}`,
      headers: bearer(token),
    })
  ).json();
  expect(finished.status).toBe('completed');

  const check = (
    await app.inject({
      method: 'POST',
      url: '/api/v1/monitoring/one-time-check',
      payload: { vin: DEMO_PLEDGED_VIN },
      headers: bearer(token),
    })
  ).json();
  expect(check).toMatchObject({ status: 'completed', demo: true, findingsCount: 1 });
  expect(check.sources[0].findings[0].payload.note).toContain('ДЕМО');
});
