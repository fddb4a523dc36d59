import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { computeVinCheckDigit } from '@pledgewatch/identifiers';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ROLLUP_RECOUNTS, rowsOf } from '../../db/testing/rollup-recounts.ts';
import type { JobContext } from '../../jobs/job-definition.ts';
import { bearer, buildTestApp, createSignedInUser, type TestUser } from '../../testing/test-app.ts';
import { importUploadJob } from './jobs/import-upload.job.ts';
import { validateUploadJob } from './jobs/validate-upload.job.ts';
import { itemsUpload } from './kinds/items-upload.ts';
import { receiveItemsCsv } from './testing/receive-csv.ts';
import { importUpload, validateUpload } from './upload-pipeline.ts';

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pledgewatch-upload-import-'));
afterAll(() => rm(dataDir, { recursive: true, force: true }));
const { app, config, connectionString } = await buildTestApp({
  config: { dataDir, uploadMaxBytes: 1024 * 1024, uploadMaxUnzippedBytes: 16 * 1024 * 1024 },
});
const context = { db: app.db, config, queue: app.queue, log: app.log, mailer: app.mailer } as JobContext;
const run = (job: typeof validateUploadJob | typeof importUploadJob, uploadId: string) =>
  job.handler({ id: 'test', data: { uploadId }, retryCount: 0, retryLimit: 3 }, context);
const get = (url: string, user: TestUser) => app.inject({ method: 'GET', url, headers: bearer(user.token) });

let serial = 700000;
function makeVin(): string {
  const body = `Z94CB41AAP${String(++serial).padStart(7, '0')}`;
  return body.slice(0, 8) + computeVinCheckDigit(body) + body.slice(9);
}

/** A portfolio CSV received by the service (auto-confirmed), before its jobs. */
const receiveCsv = (user: TestUser, csv: string) => receiveItemsCsv(app, config, user, csv);

/** A portfolio CSV through the service and both jobs, as the worker runs them. */
async function importCsv(user: TestUser, csv: string): Promise<string> {
  const upload = await receiveCsv(user, csv);
  await run(validateUploadJob, upload.id);
  await run(importUploadJob, upload.id);
  return upload.id;
}

/** Pages the trigram index still holds in its pending list (0 once merged). */
const pendingSearchPages = async () =>
  (
    await app.db.query<{ pages: number }>(
      "SELECT gin_clean_pending_list('monitoring_items_search_text_idx'::regclass)::int AS pages",
    )
  ).rows[0]!.pages;

describe('portfolio import (issue #15)', () => {
  it('imports the first of duplicate rows, refuses bad rows, lists the rows and finds them by label and contract once the job is done', async () => {
    const user = await createSignedInUser(app);
    const vins = Array.from({ length: 300 }, () => makeVin());
    const lines = vins.map(
      (vin, i) => `${vin};Hyundai Solaris №${i};КД-2026/${String(i).padStart(5, '0')};Петров`,
    );
    const csv = [
      'VIN;Метка;Номер договора;Залогодатель',
      ...lines,
      `${vins[7]};Повтор;КД-ПОВТОР;Петров`,
      'XTA21074;Короткий VIN;КД-1;Петров',
    ].join('\n');
    const uploadId = await importCsv(user, csv);

    const detail = (await get(`/api/v1/monitoring/uploads/${uploadId}`, user)).json();
    expect(detail).toMatchObject({
      status: 'done_with_errors',
      counts: { rows: 302, accepted: 300, duplicates: 1, rejected: 1 },
    });
    const list = (await get('/api/v1/monitoring/items?entity=vin&pageSize=100', user)).json();
    expect(list).toMatchObject({ total: 300, totalIsEstimate: false });
    // The import job merged the search entries it deferred: nothing left pending.
    expect(await pendingSearchPages()).toBe(0);

    const byContract = (
      await get(`/api/v1/monitoring/items?entity=vin&search=${encodeURIComponent('кд-2026/0007')}`, user)
    ).json();
    expect(byContract.items.map((item: { identifier: string }) => item.identifier).sort()).toEqual(
      vins.slice(70, 80).sort(),
    );
    // The first row of a repeated VIN won: its label, not the repeat's.
    const byLabel = (
      await get(`/api/v1/monitoring/items?entity=vin&search=${encodeURIComponent('solaris №7')}`, user)
    ).json();
    expect(byLabel.total).toBe(11);
    expect(
      (await get(`/api/v1/monitoring/items?entity=vin&search=${encodeURIComponent('повтор')}`, user)).json()
        .total,
    ).toBe(0);
  });

  it('an auto-confirmed upload skips the preview summary: the import counts new, restored and repeated rows, and the label rollups equal a recount', async () => {
    const user = await createSignedInUser(app);
    const vins = Array.from({ length: 6 }, () => makeVin());
    // A first upload, then one of its items archived: the second upload restores it.
    await importCsv(
      user,
      ['VIN;Метка', `${vins[0]};Kia Rio`, `${vins[1]};kia RIO`, `${vins[2]};Архив`].join('\n'),
    );
    await app.db.query(
      "UPDATE monitoring_items SET status = 'archived', archived_at = now() WHERE organisation_id = $1 AND identifier = $2",
      [user.organisationId, vins[2]],
    );
    const summarise = vi.spyOn(itemsUpload, 'summarise');
    try {
      const uploadId = await importCsv(
        user,
        [
          'VIN;Метка',
          `${vins[0]};Повтор активного`,
          `${vins[2]};Вернулся`,
          `${vins[3]};KIA Rio`,
          `${vins[4]}`,
          `${vins[3]};Повтор в файле`,
          `${vins[5]};Kia Rio`,
        ].join('\n'),
      );
      expect(summarise).not.toHaveBeenCalled();
      expect((await get(`/api/v1/monitoring/uploads/${uploadId}`, user)).json()).toMatchObject({
        status: 'done',
        counts: { rows: 6, accepted: 3, restored: 1, duplicates: 2, rejected: 0 },
      });
    } finally {
      summarise.mockRestore();
    }
    const rollup = await app.db.query(
      `SELECT label, day::text, kind, sum(added)::int AS added, sum(archived)::int AS archived
         FROM statistics_label_item_days WHERE organisation_id = $1
        GROUP BY 1, 2, 3 HAVING sum(added) <> 0 OR sum(archived) <> 0 ORDER BY 1, 2, 3`,
      [user.organisationId],
    );
    const recount = await app.db.query(
      `SELECT label, day::text, kind, sum(added)::int AS added, sum(archived)::int AS archived
         FROM (SELECT lower(label) AS label, (created_at AT TIME ZONE 'Europe/Moscow')::date AS day, kind,
                      1 AS added, 0 AS archived FROM monitoring_items WHERE organisation_id = $1
               UNION ALL
               SELECT lower(label), (archived_at AT TIME ZONE 'Europe/Moscow')::date, kind, 0, 1
                 FROM monitoring_items WHERE organisation_id = $1 AND archived_at IS NOT NULL) x
        WHERE label IS NOT NULL GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
      [user.organisationId],
    );
    expect(rollup.rows).toEqual(recount.rows);
    expect(rollup.rows.find((row) => row.label === 'kia rio')).toMatchObject({ added: 4 });
    const labels = await app.db.query(
      `SELECT DISTINCT lower(i.label) AS label FROM monitoring_items i
        WHERE i.organisation_id = $1 AND i.label IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM statistics_labels l WHERE l.organisation_id = i.organisation_id AND l.label = lower(i.label))`,
      [user.organisationId],
    );
    expect(labels.rows).toEqual([]);
  });

  it("the statistics label filter finds an import's new labels once its job completes the import, also when the job is retried after stopping past the commit", async () => {
    const user = await createSignedInUser(app);
    const moscowToday = new Date(Date.now() + 3 * 3600_000).toISOString().slice(0, 10);
    const addedWithLabel = async (label: string) =>
      (
        await app.inject({
          method: 'POST',
          url: '/api/v1/monitoring/statistics/data',
          headers: bearer(user.token),
          payload: { from: moscowToday, to: moscowToday, label },
        })
      ).json().totals.itemsAdded as number;
    // Validated and imported without the job's after-work: as if the worker died right after the commit.
    const upload = await receiveCsv(
      user,
      ['VIN;Метка', `${makeVin()};Отложенная Метка`, `${makeVin()};отложенная метка`].join('\n'),
    );
    await validateUpload({ db: app.db, config }, upload.id, { lastAttempt: true });
    expect(await importUpload({ db: app.db, config }, upload.id, { lastAttempt: true })).not.toBeNull();
    // The rows and their day counts are in; the dictionary entry the filter looks up is not yet.
    expect((await get('/api/v1/monitoring/items?entity=vin', user)).json().total).toBe(2);
    expect(await addedWithLabel('отложенная')).toBe(0);

    // The job's first retry fails to complete: it fails, for another retry.
    const complete = vi
      .spyOn(itemsUpload, 'completeImport')
      .mockRejectedValueOnce(new Error('connection lost'));
    try {
      await expect(run(importUploadJob, upload.id)).rejects.toThrow('connection lost');
    } finally {
      complete.mockRestore();
    }
    expect(await addedWithLabel('отложенная')).toBe(0);
    await run(importUploadJob, upload.id);
    expect(await addedWithLabel('отложенная')).toBe(2);
    expect((await get(`/api/v1/monitoring/uploads/${upload.id}`, user)).json()).toMatchObject({
      status: 'done',
      counts: { accepted: 2 },
    });
  });

  it("the job fills the dictionary from the import's own labels: it reads none of the organisation's day rows (issue #31)", async () => {
    const user = await createSignedInUser(app);
    // Day rows of earlier items, so a fill that compared them with the dictionary had rows to read.
    await importCsv(user, ['VIN;Метка', `${makeVin()};Ранняя`, `${makeVin()};Другая ранняя`].join('\n'));
    const upload = await receiveCsv(
      user,
      ['VIN;Метка', `${makeVin()};Новая Метка`, `${makeVin()};новая метка`, `${makeVin()};Третья`].join('\n'),
    );
    await validateUpload({ db: app.db, config }, upload.id, { lastAttempt: true });
    expect(await importUpload({ db: app.db, config }, upload.id, { lastAttempt: true })).not.toBeNull();
    const dictionary = async () =>
      (
        await app.db.query<{ label: string }>(
          'SELECT label FROM statistics_labels WHERE organisation_id = $1 ORDER BY label',
          [user.organisationId],
        )
      ).rows.map((row) => row.label);
    expect(await dictionary()).toEqual(['другая ранняя', 'ранняя']);

    // A connection of its own: a backend's table statistics not yet flushed from earlier transactions
    // show in pg_stat_xact_user_tables too (PostgreSQL 15+).
    const client = new pg.Client({ connectionString });
    await client.connect();
    try {
      await client.query('BEGIN');
      await itemsUpload.completeImport!(client, { organisationId: user.organisationId });
      const read = await client.query<{ scans: number }>(
        `SELECT (coalesce(seq_scan, 0) + coalesce(idx_scan, 0))::int AS scans FROM pg_stat_xact_user_tables
          WHERE relname = 'statistics_label_item_days'`,
      );
      await client.query('COMMIT');
      expect(read.rows[0]!.scans).toBe(0);
    } finally {
      await client.end();
    }
    expect(await dictionary()).toEqual(['другая ранняя', 'новая метка', 'ранняя', 'третья']);
    const notes = await app.db.query('SELECT 1 FROM statistics_labels_pending WHERE organisation_id = $1', [
      user.organisationId,
    ]);
    expect(notes.rowCount).toBe(0);
  });

  it("an add, a label edit, an archive and a delete of the organisation's items do not wait for its running import; the rollups stay exact", async () => {
    const user = await createSignedInUser(app);
    await importCsv(
      user,
      ['VIN;Метка', ...Array.from({ length: 3 }, () => `${makeVin()};Kia Rio`)].join('\n'),
    );
    const existing = (
      await app.db.query<{ id: string }>(
        'SELECT id FROM monitoring_items WHERE organisation_id = $1 ORDER BY id',
        [user.organisationId],
      )
    ).rows.map((row) => row.id);
    // Today's rows of the same kind and label as the import's, the rollup rows they share.
    const upload = await receiveCsv(
      user,
      ['VIN;Метка', ...Array.from({ length: 50 }, () => `${makeVin()};Kia Rio`)].join('\n'),
    );
    await validateUpload({ db: app.db, config }, upload.id, { lastAttempt: true });
    await app.db.query(`UPDATE uploads SET status = 'importing' WHERE id = $1`, [upload.id]);

    const importer = new pg.Client({ connectionString });
    await importer.connect();
    const importerPid = (await importer.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!
      .pid;
    /** Runs `write` while the import's transaction is open; whether it had to wait for the import. */
    const waitedForImport = async (write: () => Promise<unknown>): Promise<boolean> => {
      let done = false;
      const written = write().finally(() => {
        done = true;
      });
      while (!done) {
        const blocked = await app.db.query(
          'SELECT 1 FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))',
          [importerPid],
        );
        if (blocked.rowCount) {
          return true;
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await written;
      return false;
    };
    try {
      await importer.query('BEGIN');
      await itemsUpload.importStaged(importer, {
        uploadId: upload.id,
        organisationId: user.organisationId,
        userId: user.id,
      });
      const waits = {
        add: await waitedForImport(() =>
          app.inject({
            method: 'POST',
            url: '/api/v1/monitoring/regular-check/form-vin',
            headers: bearer(user.token),
            payload: { rows: [{ vin: makeVin(), label: 'Kia Rio' }] },
          }),
        ),
        edit: await waitedForImport(() =>
          app.db.query(`UPDATE monitoring_items SET label = 'Kia Rio' WHERE id = $1`, [existing[0]]),
        ),
        relabel: await waitedForImport(() =>
          app.db.query(`UPDATE monitoring_items SET label = 'Kia Ceed' WHERE id = $1`, [existing[0]]),
        ),
        archive: await waitedForImport(() =>
          app.db.query(`UPDATE monitoring_items SET status = 'archived', archived_at = now() WHERE id = $1`, [
            existing[1],
          ]),
        ),
        delete: await waitedForImport(() =>
          app.db.query('DELETE FROM monitoring_items WHERE id = $1', [existing[2]]),
        ),
      };
      expect(waits).toEqual({ add: false, edit: false, relabel: false, archive: false, delete: false });
      await importer.query('COMMIT');
    } finally {
      await importer.query('ROLLBACK').catch(() => {});
      await importer.end();
    }
    for (const table of ['statistics_item_days', 'statistics_label_item_days']) {
      const { rollup, source } = ROLLUP_RECOUNTS[table]!;
      const scoped = (sql: string) =>
        `SELECT * FROM (${sql}) x WHERE organisation_id = '${user.organisationId}'`;
      expect(await rowsOf(app.db, scoped(rollup)), table).toEqual(await rowsOf(app.db, scoped(source)));
    }
    const todayAdded = await app.db.query<{ added: number }>(
      `SELECT sum(added)::int AS added FROM statistics_label_item_days WHERE organisation_id = $1 AND label = 'kia rio'`,
      [user.organisationId],
    );
    // 3 + 50 + 1 added; one moved to «kia ceed», one deleted.
    expect(todayAdded.rows[0]!.added).toBe(52);
  });

  it('a failed search index merge after the commit leaves the upload done and its rows searchable', async () => {
    const user = await createSignedInUser(app);
    const merge = vi.spyOn(itemsUpload, 'afterImport').mockRejectedValue(new Error('not the owner'));
    try {
      const vin = makeVin();
      const uploadId = await importCsv(user, ['VIN;Метка', `${vin};Слияние не удалось`].join('\n'));
      expect(merge).toHaveBeenCalledOnce();
      expect((await get(`/api/v1/monitoring/uploads/${uploadId}`, user)).json()).toMatchObject({
        status: 'done',
      });
      const found = (
        await get(`/api/v1/monitoring/items?entity=vin&search=${encodeURIComponent('слияние не')}`, user)
      ).json();
      expect(found.items.map((item: { identifier: string }) => item.identifier)).toEqual([vin]);
    } finally {
      merge.mockRestore();
    }
  });

  it('an organisation deleted takes its items and statistics labels with it (triggers instead of row checks)', async () => {
    const user = await createSignedInUser(app);
    await importCsv(user, ['VIN;Метка', `${makeVin()};Уходящая метка`, `${makeVin()};Вторая`].join('\n'));
    const count = async (table: string) =>
      (
        await app.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM ${table} WHERE organisation_id = $1`,
          [user.organisationId],
        )
      ).rows[0]!.n;
    expect(await count('monitoring_items')).toBe(2);
    expect(await count('statistics_labels')).toBe(2);
    expect(await count('statistics_label_item_days')).toBe(2);
    await app.db.query('DELETE FROM users WHERE organisation_id = $1', [user.organisationId]);
    await app.db.query('DELETE FROM organisations WHERE id = $1', [user.organisationId]);
    expect(await count('monitoring_items')).toBe(0);
    expect(await count('statistics_labels')).toBe(0);
    expect(await count('statistics_label_item_days')).toBe(0);
    expect(await count('monitoring_item_counts')).toBe(0);
  });
});
