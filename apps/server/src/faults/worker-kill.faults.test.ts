import { describe, expect, it } from 'vitest';
import { randomVin } from '../modules/checks/testing/checks-test-helpers.ts';
import {
  addVinItems,
  importDataset,
  report,
  runToEnd,
  seedOrganisation,
  sleep,
  useWorkerRig,
  waitFor,
} from '../testing/fault-harness.ts';

/**
 * kill -9 of a worker in the middle of a regular check run and of a 100,000-row upload, then a new
 * worker: the run ends with exactly the events of an uninterrupted run, the upload ends done or
 * failed and never partial, and the API (what the screens read) says so.
 */
const BATCH_SIZE = 50;
const ITEMS = 3000;
const UPLOAD_ROWS = 100_000;

const rig = useWorkerRig('faults_workers', BATCH_SIZE);

async function eventsOf(organisationId: string): Promise<string[]> {
  const { rows } = await rig.db.query<{ line: string }>(
    `SELECT i.identifier || ' ' || e.source_type || ' ' || e.event_type || ' ' || e.finding_key AS line
       FROM monitoring_events e JOIN monitoring_items i ON i.id = e.item_id
      WHERE e.organisation_id = $1 ORDER BY line`,
    [organisationId],
  );
  return rows.map((row) => row.line);
}

async function runState(runId: string) {
  const { rows } = await rig.db.query<{ status: string; batches_done: number; batches_total: number }>(
    'SELECT status, batches_done, batches_total FROM check_runs WHERE id = $1',
    [runId],
  );
  return rows[0]!;
}

describe('worker killed with SIGKILL', () => {
  it('mid check run: the resumed run has exactly the events of an uninterrupted run', async () => {
    const staff = await seedOrganisation(rig.url, [{ role: 'admin', isStaff: true }]);
    const killedOrg = await seedOrganisation(rig.url, [{ role: 'analyst' }]);
    const calmOrg = await seedOrganisation(rig.url, [{ role: 'analyst' }]);
    const staffApi = await rig.client(staff.users[0]!.email, staff.users[0]!.password);
    const vins = Array.from({ length: ITEMS }, () => randomVin());
    await importDataset(
      staffApi,
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
    await importDataset(
      staffApi,
      'wanted',
      vins.filter((_, i) => i % 5 === 0).map((vin, i) => ({ vin, record_id: `W${i}`, since: '2025-01-01' })),
    );
    await importDataset(
      staffApi,
      'accidents',
      vins.filter((_, i) => i % 7 === 0).map((vin, i) => ({ vin, record_id: `A${i}`, date: '2025-01-01' })),
    );
    // Every other source answers too (with nothing for these VINs): a source without data fails the run.
    await importDataset(staffApi, 'restrictions', [
      { vin: randomVin(), record_id: 'R0', kind: 'Запрет', imposed_at: '2020-01-01' },
    ]);
    await importDataset(staffApi, 'registration', [
      { vin: randomVin(), record_id: 'G0', operation: 'Первичная регистрация', date: '2020-01-01' },
    ]);
    const company = {
      document_type: 'inn',
      document_number: '7707083893',
      status: 'open',
      opened_at: '2020-01-01',
    };
    await importDataset(staffApi, 'bankruptcy', [{ ...company, case_number: 'B0' }]);
    await importDataset(staffApi, 'enforcement', [{ ...company, proceeding_number: 'E0' }]);
    // The MVD list is imported in the background (202), by the worker started below.
    const passportList = await staffApi.upload(
      '/monitoring/sources/passport/imports',
      'list_of_expired_passports.csv',
      'PASSP_SERIES,PASSP_NUMBER\n4500,123456\n',
    );
    expect(passportList.status, passportList.text).toBe(202);
    await rig.importsSettled();
    await addVinItems(rig.db, killedOrg.organisationId, vins);
    await addVinItems(rig.db, calmOrg.organisationId, vins);

    const killedApi = await rig.client(killedOrg.users[0]!.email, killedOrg.users[0]!.password);
    const started = await killedApi.post('/monitoring/check-runs');
    expect(started.status, started.text).toBe(202);
    const runId = (started.body as { id: string }).id;
    let worker = rig.startWorker();
    let kills = 0;
    // Two kills, at about a third and at two thirds of the batches.
    for (const fraction of [1 / 3, 2 / 3]) {
      const at = await waitFor(
        `the run to pass ${Math.round(fraction * 100)}% of its batches`,
        async () => {
          const state = await runState(runId);
          return state.batches_total > 0 && state.batches_done >= state.batches_total * fraction
            ? state
            : undefined;
        },
        180_000,
        20,
      );
      await worker.kill('SIGKILL');
      kills++;
      const afterKill = await runState(runId);
      expect(afterKill.status).toBe('running');
      expect(afterKill.batches_done).toBeLessThan(afterKill.batches_total);
      report(`check run: worker killed at ${at.batches_done}/${at.batches_total} batches`);
      worker = rig.startWorker();
    }
    const t0 = Date.now();
    const resumed = (await runToEnd(killedApi, runId)) as Record<string, unknown>;
    expect(resumed).toMatchObject({
      status: 'completed',
      batchesDone: ITEMS / BATCH_SIZE,
      batchesTotal: ITEMS / BATCH_SIZE,
      itemsTotal: ITEMS,
    });

    const calmApi = await rig.client(calmOrg.users[0]!.email, calmOrg.users[0]!.password);
    const calmStart = await calmApi.post('/monitoring/check-runs');
    expect(calmStart.status, calmStart.text).toBe(202);
    const calm = await runToEnd(calmApi, (calmStart.body as { id: string }).id);
    expect(calm.status).toBe('completed');
    await worker.kill('SIGTERM');

    const expected = await eventsOf(calmOrg.organisationId);
    expect(expected.length).toBe(ITEMS / 3 + ITEMS / 5 + Math.ceil(ITEMS / 7));
    const actual = await eventsOf(killedOrg.organisationId);
    expect(actual.length).toBe(expected.length);
    expect(actual).toEqual(expected);
    expect((resumed as { eventsCreated: number }).eventsCreated).toBe(expected.length);
    // Every item of the killed run was checked, none twice-counted in the progress.
    const unchecked = await rig.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM monitoring_item_checks
        WHERE organisation_id = $1 AND item_last_checked_at(item_id) IS NULL`,
      [killedOrg.organisationId],
    );
    expect(unchecked.rows[0]!.n).toBe(0);
    report(
      `check run: ${ITEMS} items in ${ITEMS / BATCH_SIZE} batches, ${kills} worker kills, resumed to the end in ${
        Date.now() - t0
      } ms; ${expected.length} events, identical to the uninterrupted run`,
    );
  });

  it('mid 100,000-row upload: it ends done or failed, never partial, and the API shows it', async () => {
    const org = await seedOrganisation(rig.url, [{ role: 'analyst' }]);
    const api = await rig.client(org.users[0]!.email, org.users[0]!.password);
    const vins = Array.from({ length: UPLOAD_ROWS }, () => randomVin('XWB'));
    const t0 = Date.now();
    const created = await api.upload(
      '/monitoring/uploads?autoConfirm=true',
      'portfolio.csv',
      `VIN\n${vins.join('\n')}\n`,
    );
    expect(created.status, created.text).toBe(202);
    const uploadId = (created.body as { id: string }).id;
    const uploadRow = async () =>
      (
        await rig.db.query<{ status: string; rows_processed: number }>(
          'SELECT status, rows_processed FROM uploads WHERE id = $1',
          [uploadId],
        )
      ).rows[0]!;
    const itemCount = async () =>
      (
        await rig.db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM monitoring_items WHERE organisation_id = $1',
          [org.organisationId],
        )
      ).rows[0]!.n;

    let worker = rig.startWorker();
    // Kill while validating, a good part of the file read.
    const validating = await waitFor(
      'validation to be under way',
      async () => {
        const row = await uploadRow();
        return row.status === 'validating' && row.rows_processed >= UPLOAD_ROWS / 5 ? row : undefined;
      },
      120_000,
      20,
    );
    await worker.kill('SIGKILL');
    report(`upload: worker killed while validating (${validating.rows_processed} rows read)`);
    expect(await itemCount()).toBe(0);
    worker = rig.startWorker();

    // Kill again while importing, if the import is caught in its window.
    const importing = await waitFor(
      'the import to start (or the upload to end)',
      async () => {
        const row = await uploadRow();
        return ['importing', 'done', 'done_with_errors', 'failed'].includes(row.status) ? row : undefined;
      },
      180_000,
      10,
    );
    if (importing.status === 'importing') {
      // Let the import's transaction get going before the kill.
      await sleep(300);
      await worker.kill('SIGKILL');
      const afterKill = await uploadRow();
      const count = await itemCount();
      report(`upload: worker killed while ${afterKill.status} (items visible: ${count})`);
      expect([0, UPLOAD_ROWS]).toContain(count);
      worker = rig.startWorker();
    }

    const final = await waitFor(
      'the upload to end',
      async () => {
        const response = await api.get(`/monitoring/uploads/${uploadId}`);
        const body = response.body as { status: string };
        return ['done', 'done_with_errors', 'failed', 'cancelled'].includes(body.status) ? body : undefined;
      },
      240_000,
      500,
    );
    await worker.kill('SIGTERM');
    const count = await itemCount();
    const upload = final as {
      status: string;
      statusLabel: string;
      counts: { rows: number; accepted: number };
      errorMessage: string | null;
    };
    if (upload.status === 'failed') {
      expect(count).toBe(0);
      expect(upload.errorMessage).toBeTruthy();
    } else {
      expect(upload).toMatchObject({
        status: 'done',
        statusLabel: 'Загружен',
        counts: { rows: UPLOAD_ROWS, accepted: UPLOAD_ROWS },
      });
      expect(count).toBe(UPLOAD_ROWS);
    }
    // Nothing left half-done: no staged rows of the upload remain.
    const staged = await rig.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM upload_item_rows WHERE upload_id = $1',
      [uploadId],
    );
    expect(staged.rows[0]!.n).toBe(0);
    report(
      `upload: ${UPLOAD_ROWS} rows ended "${upload.status}" with ${count} items, ${Date.now() - t0} ms from upload to end (killed ${
        importing.status === 'importing' ? 'twice' : 'once'
      })`,
    );
  });
});
