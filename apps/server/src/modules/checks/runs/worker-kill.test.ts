import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { bearer, buildTestApp, createSignedInUser } from '../../../testing/test-app.ts';
import { addItems, importRecords, randomVin, runChecksNow } from '../testing/checks-test-helpers.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../../../../..');
const nodeBinary = existsSync(path.join(repoRoot, 'node_modules/.bin/node'))
  ? path.join(repoRoot, 'node_modules/.bin/node')
  : process.execPath;
const BATCH_SIZE = 40;
const ITEMS = 2400;

const { app, config, connectionString } = await buildTestApp({ config: { checkBatchSize: BATCH_SIZE } });
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) {
    child.kill('SIGKILL');
  }
});

/** `npm run worker` as a separate OS process against the test database. */
function startWorker(): ChildProcess {
  const child = spawn(nodeBinary, [path.join(repoRoot, 'apps/server/src/worker.ts')], {
    cwd: repoRoot,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: connectionString,
      WORKERS: 'true',
      LOG_LEVEL: 'silent',
      DEMO_DATA: 'false',
      CHECK_BATCH_SIZE: String(BATCH_SIZE),
      JOBS_SUPERVISE_SECONDS: '2',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  return child;
}

const OTHER_SOURCES: Record<string, Record<string, unknown>> = {
  restrictions: { vin: randomVin(), record_id: 'R0', kind: 'Запрет', imposed_at: '2020-01-01' },
  registration: { vin: randomVin(), record_id: 'G0', operation: 'Первичная регистрация', date: '2020-01-01' },
  bankruptcy: {
    document_type: 'inn',
    document_number: '7707083893',
    case_number: 'B0',
    status: 'open',
    opened_at: '2020-01-01',
  },
  enforcement: {
    document_type: 'inn',
    document_number: '7707083893',
    proceeding_number: 'E0',
    status: 'open',
    opened_at: '2020-01-01',
  },
  passport: { document_number: '4500123456', reason: 'Утрачен' },
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function runState(runId: string) {
  const { rows } = await app.db.query<{ status: string; batches_done: number; batches_total: number }>(
    'SELECT status, batches_done, batches_total FROM check_runs WHERE id = $1',
    [runId],
  );
  return rows[0]!;
}

async function eventsOf(organisationId: string): Promise<string[]> {
  const { rows } = await app.db.query<{ line: string }>(
    `SELECT i.identifier || ' ' || e.source_type || ' ' || e.event_type || ' ' || e.finding_key AS line
       FROM monitoring_events e JOIN monitoring_items i ON i.id = e.item_id
      WHERE e.organisation_id = $1 ORDER BY line`,
    [organisationId],
  );
  return rows.map((row) => row.line);
}

it('a worker killed mid-run and a new one give exactly the events of an uninterrupted run', {
  timeout: 180_000,
}, async () => {
  const staff = await createSignedInUser(app, { role: 'admin', isStaff: true });
  const killed = await createSignedInUser(app, { role: 'analyst' });
  const calm = await createSignedInUser(app, { role: 'analyst' });
  const vins = Array.from({ length: ITEMS }, () => randomVin());
  await importRecords(
    app,
    staff.token,
    'pledges',
    vins
      .filter((_, i) => i % 3 === 0)
      .map((vin, i) => ({
        vin,
        notice_number: `N${i}`,
        status: 'active',
        registered_at: '2025-01-01',
        pledgee: 'Банк',
      })),
  );
  await importRecords(
    app,
    staff.token,
    'wanted',
    vins.filter((_, i) => i % 5 === 0).map((vin, i) => ({ vin, record_id: `W${i}`, since: '2025-01-01' })),
  );
  await importRecords(
    app,
    staff.token,
    'accidents',
    vins.filter((_, i) => i % 7 === 0).map((vin, i) => ({ vin, record_id: `A${i}`, date: '2025-01-01' })),
  );
  // The other sources answer too (with nothing for these VINs): a source without data would fail the run.
  for (const [type, record] of Object.entries(OTHER_SOURCES)) {
    await importRecords(app, staff.token, type, [record]);
  }
  for (const user of [killed, calm]) {
    await addItems(
      app,
      user.organisationId,
      vins.map((identifier) => ({ kind: 'vin' as const, identifier })),
    );
  }

  const started = await app.inject({
    method: 'POST',
    url: '/api/v1/monitoring/check-runs',
    headers: bearer(killed.token),
  });
  const runId = started.json<{ id: string }>().id;
  const first = startWorker();
  let state = await runState(runId);
  for (let waited = 0; state.batches_done < 8; waited += 20) {
    expect(waited).toBeLessThan(60_000);
    await sleep(20);
    state = await runState(runId);
  }
  const t0 = Date.now();
  first.kill('SIGKILL');
  await new Promise((resolve) => first.once('exit', resolve));
  const atKill = await runState(runId);
  expect(atKill.status).toBe('running');
  expect(atKill.batches_done).toBeLessThan(atKill.batches_total);

  startWorker();
  for (let waited = 0; state.status === 'running'; waited += 250) {
    expect(waited).toBeLessThan(120_000);
    await sleep(250);
    state = await runState(runId);
  }
  expect(state).toMatchObject({ status: 'completed', batches_done: ITEMS / BATCH_SIZE });
  console.log(
    `resumed run finished ${Date.now() - t0} ms after the kill (batches done at kill: ${atKill.batches_done})`,
  );

  const uninterrupted = await runChecksNow(app, config, calm.token);
  expect(uninterrupted.status).toBe('completed');

  const expected = await eventsOf(calm.organisationId);
  expect(expected.length).toBe(800 + 480 + 343);
  expect(await eventsOf(killed.organisationId)).toEqual(expected);
  const { rows } = await app.db.query(
    'SELECT count(*)::int AS n FROM monitoring_item_checks WHERE organisation_id = $1 AND item_last_checked_at(item_id) IS NULL',
    [killed.organisationId],
  );
  expect(rows[0].n).toBe(0);
});
