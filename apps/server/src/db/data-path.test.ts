import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { JobContext } from '../jobs/job-definition.ts';
import {
  addItems,
  importRecords,
  randomPassport,
  randomVin,
  runChecksNow,
} from '../modules/checks/testing/checks-test-helpers.ts';
import { insertDelivery, insertEvent, insertRun } from '../modules/statistics/testing/statistics-fixtures.ts';
import { importUploadJob } from '../modules/uploads/jobs/import-upload.job.ts';
import { validateUploadJob } from '../modules/uploads/jobs/validate-upload.job.ts';
import { receiveItemsCsv } from '../modules/uploads/testing/receive-csv.ts';
import { bearer, buildTestApp, createSignedInUser, type TestUser } from '../testing/test-app.ts';
import { listTriggersAndFunctions } from './schema-snapshot.ts';
import { ROLLUP_RECOUNTS, rowsOf as rowsOfQuery } from './testing/rollup-recounts.ts';

/**
 * The data path's bookkeeping (docs/data-path.md): every rollup and counter table that triggers keep
 * must equal a recount from its source rows after any mix of the product's writes. The workload goes
 * through the product's own paths where it has one (an upload, form entries, a regular run, read
 * marks, status changes, one-time checks) and through SQL for what no screen does yet (deleting
 * items, runs and organisations).
 */
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pledgewatch-data-path-'));
afterAll(() => rm(dataDir, { recursive: true, force: true }));
const { app, config } = await buildTestApp({ config: { dataDir } });
const context = { db: app.db, config, queue: app.queue, log: app.log, mailer: app.mailer } as JobContext;

const rowsOf = (sql: string) => rowsOfQuery(app.db, sql);

async function expectEveryRollupEqualsItsRecount(when: string) {
  for (const [table, { rollup, source }] of Object.entries(ROLLUP_RECOUNTS)) {
    expect(await rowsOf(rollup), `${table} ${when}`).toEqual(await rowsOf(source));
  }
}

async function upload(user: TestUser, csv: string) {
  const received = await receiveItemsCsv(app, config, user, csv);
  for (const job of [validateUploadJob, importUploadJob]) {
    await job.handler({ id: 'test', data: { uploadId: received.id }, retryCount: 0, retryLimit: 3 }, context);
  }
  return received.id;
}

const post = (user: TestUser, url: string, payload: unknown) =>
  app.inject({ method: 'POST', url, payload: payload as object, headers: bearer(user.token) });

describe('every rollup and counter kept by triggers equals a recount from its source', () => {
  it('after a mixed workload of uploads, form entries, runs, reads, status changes and deletions', async () => {
    const staff = await createSignedInUser(app, { isStaff: true });
    const bank = await createSignedInUser(app);
    const other = await createSignedInUser(app);
    await expectEveryRollupEqualsItsRecount('at the start');

    // An upload of 40 VINs with labels (two share a label in other case), and form entries.
    const vins = Array.from({ length: 40 }, () => randomVin('XTA'));
    const uploadId = await upload(
      bank,
      `VIN;Метка\n${vins.map((vin, i) => `${vin};${i % 2 ? 'Lada Vesta' : `lada vesta ${i % 5}`}`).join('\n')}\n`,
    );
    expect(
      (
        await post(bank, '/api/v1/monitoring/regular-check/form-vin', {
          rows: [{ vin: randomVin('Z94'), label: 'Solaris' }, { vin: randomVin('Z94') }],
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await post(other, '/api/v1/monitoring/regular-check/form-doc', {
          rows: [randomPassport(), randomPassport()].map((documentNumber) => ({
            documentType: 'passport_rf',
            number: documentNumber,
            label: 'Клиент',
          })),
        })
      ).statusCode,
    ).toBe(200);
    await upload(other, `VIN;Метка\n${randomVin('WVW')};Polo\n${randomVin('WVW')};\n`);
    await expectEveryRollupEqualsItsRecount('after uploads and form entries');

    // A regular run that finds a third of the bank's VINs wanted: events through the run's own path.
    await importRecords(
      app,
      staff.token,
      'wanted',
      vins
        .filter((_, i) => i % 3 === 0)
        .map((vin, i) => ({
          record_id: `w-${i}`,
          vin,
          since: '2026-01-15',
          region: 'Москва',
        })),
    );
    const run = await runChecksNow(app, config, bank.token);
    expect(run.status).toMatch(/^completed/);
    const { rows: runEvents } = await app.db.query('SELECT 1 FROM monitoring_events WHERE run_id = $1', [
      run.id,
    ]);
    expect(runEvents.length).toBeGreaterThanOrEqual(13);
    const { rows: bankItems } = await app.db.query<{ id: string }>(
      'SELECT id FROM monitoring_items WHERE organisation_id = $1 ORDER BY identifier',
      [bank.organisationId],
    );
    // Events on other days and sources, as months of runs leave them, some already read.
    const runId = await insertRun(app.db, bank.organisationId);
    for (const [i, item] of bankItems.slice(0, 12).entries()) {
      await insertEvent(app.db, {
        organisationId: bank.organisationId,
        itemId: item.id,
        runId,
        type: i % 2 ? 'restriction_added' : 'pledge_registered_other',
        source: i % 2 ? 'restrictions' : 'pledges',
        severity: i % 3 ? 'high' : 'low',
        detectedAt: `2026-0${1 + (i % 9)}-1${i % 10}T2${i % 4}:30:00Z`,
        read: i % 4 === 0,
      });
    }
    await expectEveryRollupEqualsItsRecount('after a run and older events');

    // Reads: a page marked read, part of it unread again.
    const events = (
      await app.inject({
        method: 'GET',
        url: '/api/v1/monitoring/events/items?limit=20',
        headers: bearer(bank.token),
      })
    ).json<{ items: { id: string }[] }>().items;
    expect(events.length).toBeGreaterThan(5);
    expect(
      (await post(bank, '/api/v1/monitoring/events/read', { ids: events.map((e) => e.id), read: true }))
        .statusCode,
    ).toBe(200);
    expect(
      (
        await post(bank, '/api/v1/monitoring/events/read', {
          ids: events.slice(0, 3).map((e) => e.id),
          read: false,
        })
      ).statusCode,
    ).toBe(200);

    // Status and label changes by the product's calls, then by hand (as a fixture or an operator would).
    const [first, second, third, fourth] = bankItems.map((item) => item.id);
    for (const [id, body] of [
      [first, { label: 'Kia Rio' }],
      [second, { status: 'archived' }],
      [third, { status: 'paused', label: null }],
      [fourth, { status: 'archived' }],
    ] as const) {
      expect(
        (
          await app.inject({
            method: 'PATCH',
            url: `/api/v1/monitoring/items/${id}`,
            payload: body,
            headers: bearer(bank.token),
          })
        ).statusCode,
      ).toBe(200);
    }
    expect(
      (
        await app.inject({
          method: 'PATCH',
          url: `/api/v1/monitoring/items/${fourth}`,
          payload: { status: 'active' },
          headers: bearer(bank.token),
        })
      ).statusCode,
    ).toBe(200);
    await app.db.query(
      `UPDATE monitoring_items SET label = 'LADA VESTA', created_at = created_at - interval '40 days' WHERE id = ANY($1)`,
      [bankItems.slice(5, 9).map((item) => item.id)],
    );
    await app.db.query(
      `UPDATE monitoring_items SET kind = kind, organisation_id = organisation_id WHERE id = $1`,
      [bankItems[9]!.id],
    );

    // One-time checks and notification deliveries, one of them moving on.
    for (const user of [bank, bank, other]) {
      expect((await post(user, '/api/v1/monitoring/one-time-check', { vin: vins[0] })).statusCode).toBe(200);
    }
    await insertDelivery(app.db, bank.organisationId, { status: 'queued' });
    await insertDelivery(app.db, bank.organisationId, { status: 'sent', createdAt: '2026-03-01T10:00:00Z' });
    await insertDelivery(app.db, other.organisationId, { status: 'failed' });
    await app.db.query(
      `UPDATE notification_deliveries SET status = 'sent' WHERE organisation_id = $1 AND status = 'queued'`,
      [bank.organisationId],
    );
    await expectEveryRollupEqualsItsRecount('after reads, status changes, checks and deliveries');

    // Deletions no screen offers yet: items (with their events), a run (its events), the upload, an organisation.
    await app.db.query('DELETE FROM monitoring_items WHERE id = ANY($1)', [
      bankItems.slice(10, 16).map((item) => item.id),
    ]);
    await app.db.query('DELETE FROM check_runs WHERE id = $1', [runId]);
    await app.db.query('DELETE FROM uploads WHERE id = $1', [uploadId]);
    await app.db.query('DELETE FROM notification_deliveries WHERE organisation_id = $1 AND status = $2', [
      bank.organisationId,
      'sent',
    ]);
    await app.db.query('DELETE FROM organisations WHERE id = $1', [other.organisationId]);
    await expectEveryRollupEqualsItsRecount('after deleting items, a run, an upload and an organisation');

    // Folding the append-only deltas changes no sum.
    await app.db.query('SELECT compact_monitoring_item_counts($1)', [bank.organisationId]);
    await app.db.query('SELECT compact_monitoring_event_unread_counts($1)', [bank.organisationId]);
    await expectEveryRollupEqualsItsRecount('after folding the deltas');
    const { rows: leftovers } = await app.db.query(
      `SELECT 'revisions' FROM monitoring_item_revisions WHERE organisation_id = $1
       UNION ALL SELECT 'counts' FROM monitoring_item_counts WHERE organisation_id = $1
       UNION ALL SELECT 'unread' FROM monitoring_event_unread_counts WHERE organisation_id = $1`,
      [other.organisationId],
    );
    expect(leftovers).toEqual([]);
  });

  it('catches a rollup that a write bypassed (a planted breach)', async () => {
    const user = await createSignedInUser(app);
    const [itemId] = await addItems(app, user.organisationId, [
      { kind: 'vin', identifier: randomVin('XW8'), label: 'Breach' },
    ]);
    const runId = await insertRun(app.db, user.organisationId);
    await app.db.query('ALTER TABLE monitoring_events DISABLE TRIGGER statistics_events_insert');
    try {
      await insertEvent(app.db, {
        organisationId: user.organisationId,
        itemId: itemId!,
        runId,
        type: 'wanted_added',
        source: 'wanted',
        detectedAt: '2026-05-05T10:00:00Z',
      });
    } finally {
      await app.db.query('ALTER TABLE monitoring_events ENABLE TRIGGER statistics_events_insert');
    }
    const { rollup, source } = ROLLUP_RECOUNTS.statistics_event_days!;
    expect(await rowsOf(rollup)).not.toEqual(await rowsOf(source));
  });
});

describe('docs/data-path.md', () => {
  it('has an entry for every trigger and SQL function of the schema, and none for what is gone', async () => {
    const doc = await readFile(path.join(import.meta.dirname, '../../../../docs/data-path.md'), 'utf8');
    const documented = new Set([...doc.matchAll(/^\| `([a-z0-9_.]+)` \|/gm)].map((match) => match[1]!));
    const { triggers, functions } = await listTriggersAndFunctions(app.db);
    const expected = [...triggers, ...functions];
    // A new trigger or function needs its row (what it keeps, who reads it, the test that recounts it).
    expect(expected.filter((name) => !documented.has(name))).toEqual([]);
    expect([...documented].filter((name) => !expected.includes(name))).toEqual([]);
  });
});
