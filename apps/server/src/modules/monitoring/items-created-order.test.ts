import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { computeVinCheckDigit } from '@pledgewatch/identifiers';
import { afterAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { bearer, buildTestApp, createSignedInUser, type TestUser } from '../../testing/test-app.ts';
import { itemsUpload } from '../uploads/kinds/items-upload.ts';
import { receiveItemsCsv } from '../uploads/testing/receive-csv.ts';
import { importUpload, validateUpload } from '../uploads/upload-pipeline.ts';
import { forgetAnchors } from './items-anchors.queries.ts';
import { findItems } from './monitoring.queries.ts';

// Issue #31: an upload's import writes its rows in one transaction; until it commits they sit at
// the top of the creation order, and the list must walk around them, not through them.

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pledgewatch-created-order-'));
afterAll(() => rm(dataDir, { recursive: true, force: true }));
const { app, config } = await buildTestApp({ config: { dataDir } });

let serial = 400000;
function makeVin(): string {
  const body = `Z94CB41AAP${String(++serial).padStart(7, '0')}`;
  return body.slice(0, 8) + computeVinCheckDigit(body) + body.slice(9);
}

async function addByForm(user: TestUser, labels: string[]): Promise<void> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/monitoring/regular-check/form-vin',
    payload: { rows: labels.map((label) => ({ vin: makeVin(), label })) },
    headers: bearer(user.token),
  });
  expect(response.json().counts.added).toBe(labels.length);
}

/** A validated upload of `rows` VINs labelled "Hyundai Solaris", ready for its import. */
async function validatedUpload(user: TestUser, rows: number): Promise<string> {
  const csv = ['VIN;Метка', ...Array.from({ length: rows }, (_, i) => `${makeVin()};Hyundai Solaris №${i}`)];
  const upload = await receiveItemsCsv(app, config, user, csv.join('\n'));
  await validateUpload({ db: app.db, config }, upload.id, { lastAttempt: true });
  return upload.id;
}

/**
 * The import of `uploadId` started and held just before its commit (its rows written, invisible to
 * others); `release` lets it commit (or, with `fail`, roll back) and resolves when it has ended.
 */
async function holdImport(uploadId: string, options: { fail?: boolean } = {}) {
  let held!: () => void;
  const written = new Promise<void>((resolve) => {
    held = resolve;
  });
  let go!: () => void;
  const gate = new Promise<void>((resolve) => {
    go = resolve;
  });
  const original = itemsUpload.importStaged.bind(itemsUpload);
  const spy = vi.spyOn(itemsUpload, 'importStaged').mockImplementation(async (tx, upload) => {
    const result = await original(tx, upload);
    held();
    await gate;
    if (options.fail) {
      throw new Error('connection lost');
    }
    return result;
  });
  // A failed expectation must not leave the import (and its spy) waiting for the next test.
  onTestFinished(() => {
    go();
    spy.mockRestore();
  });
  const importing = importUpload({ db: app.db, config }, uploadId, { lastAttempt: false }).catch(
    (error: Error) => error,
  );
  await written;
  return {
    release: async () => {
      go();
      const ended = await importing;
      spy.mockRestore();
      return ended;
    },
  };
}

type Variant = Omit<Parameters<typeof findItems>[1], 'organisationId' | 'kind' | 'statuses'>;

/** Every way a page reads the creation order, on a list of 40 + 1 items, pages of 10. */
const VARIANTS: Record<string, Variant> = {
  'newest first': { sort: 'createdAt', order: 'desc', limit: 10, offset: 0 },
  'newest first, page 2': { sort: 'createdAt', order: 'desc', limit: 10, offset: 10 },
  'a frequent term, newest first (the walk)': {
    sort: 'createdAt',
    order: 'desc',
    limit: 5,
    offset: 0,
    search: 'solaris',
    exactTotalMax: 0,
  },
  'oldest first, last page (from the end)': {
    sort: 'createdAt',
    order: 'asc',
    limit: 10,
    offset: 30,
    reverseFrom: 5,
    anchorFrom: 1_000_000,
  },
};

/**
 * A variant's page on a connection of its own, planned as on a large list, and how many entries of
 * the creation order's index its statements read (the transaction's own count,
 * `pg_stat_get_xact_tuples_returned`).
 */
async function readPage(user: TestUser, variant: Variant) {
  const client = await app.db.connect();
  try {
    await client.query('BEGIN');
    // The plans of a large list (a few dozen rows would be read whole and sorted).
    await client.query('SET LOCAL enable_seqscan = off');
    await client.query('SET LOCAL enable_sort = off');
    const entries = async () =>
      (
        await client.query<{ n: number }>(
          "SELECT pg_stat_get_xact_tuples_returned('monitoring_items_created_idx'::regclass)::int AS n",
        )
      ).rows[0]!.n;
    const before = await entries();
    const page = await findItems(client, {
      organisationId: user.organisationId,
      kind: 'vin',
      statuses: ['active', 'paused'],
      ...variant,
    });
    return { ids: page.items.map((item) => item.id), entriesRead: (await entries()) - before };
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
}

/** The page the plain query gives: every visible item in creation order. */
async function expectedPage(user: TestUser, variant: Variant): Promise<string[]> {
  const direction = variant.order === 'asc' ? 'ASC' : 'DESC';
  const { rows } = await app.db.query<{ id: string }>(
    `SELECT id FROM monitoring_items
      WHERE organisation_id = $1 AND kind = 'vin' AND status <> 'archived' AND ($2::text IS NULL OR search_text LIKE $2)
      ORDER BY created_at ${direction}, id ${direction} LIMIT $3 OFFSET $4`,
    [user.organisationId, variant.search ? `%${variant.search}%` : null, variant.limit, variant.offset],
  );
  return rows.map((row) => row.id);
}

describe("the items list's creation order while an import runs (issue #31)", () => {
  it('every page of the creation order steps over the rows of an import not yet committed, and shows them once it commits', async () => {
    const user = await createSignedInUser(app);
    await addByForm(
      user,
      Array.from({ length: 40 }, (_, i) => (i % 2 ? `LADA Vesta №${i}` : `Hyundai Solaris №${i}`)),
    );
    // An item that sorts above the import's rows (as one added while it runs would: an insert of the
    // organisation's then waits for the import's day counts, so it is dated ahead beforehand).
    await addByForm(user, ['Kia Rio, добавлен позже']);
    await app.db.query(
      `UPDATE monitoring_items SET created_at = now() + interval '2 days' WHERE organisation_id = $1 AND label LIKE 'Kia Rio%'`,
      [user.organisationId],
    );
    const uploadId = await validatedUpload(user, 1_500);
    const held = await holdImport(uploadId);
    forgetAnchors();
    for (const [what, variant] of Object.entries(VARIANTS)) {
      await readPage(user, variant); // a first call reads the anchors and the kept stretches
      const page = await readPage(user, variant);
      expect(page.ids, what).toEqual(await expectedPage(user, variant));
      expect(page.ids.length, what).toBe(variant.limit);
      // The 1,500 held rows are not read: a page of 10 and the walk's 41 items at most.
      expect(page.entriesRead, what).toBeLessThan(100);
    }
    expect(await held.release()).not.toBeInstanceOf(Error);

    // Committed: the import's rows at the top, under the item dated after them.
    const { rows: imported } = await app.db.query<{ id: string; created_at: Date }>(
      `SELECT id, created_at FROM monitoring_items WHERE upload_id = $1 ORDER BY id`,
      [uploadId],
    );
    expect(imported).toHaveLength(1_500);
    expect(new Set(imported.map((row) => row.created_at.getTime())).size).toBe(1);
    // Ids of one block: the same high 64 bits, numbered in the order the rows went in.
    expect(new Set(imported.map((row) => row.id.slice(0, 18))).size).toBe(1);
    expect(imported.at(-1)!.id.slice(19)).toBe('8000-0000000005db');
    const newest = await readPage(user, VARIANTS['newest first']!);
    expect(newest.ids).toEqual(await expectedPage(user, VARIANTS['newest first']!));
    expect(newest.ids.slice(1)).toEqual(
      imported
        .slice(-9)
        .reverse()
        .map((row) => row.id),
    );
    const reservations = await app.db.query(
      'SELECT 1 FROM monitoring_item_import_ranges WHERE upload_id = $1',
      [uploadId],
    );
    expect(reservations.rows).toEqual([]);
  });

  it('an import that rolls back leaves its reservation over dead rows: pages stay whole, and the next import of the organisation clears it', async () => {
    const user = await createSignedInUser(app);
    await addByForm(
      user,
      Array.from({ length: 40 }, (_, i) => `Hyundai Solaris №${i}`),
    );
    const failing = await validatedUpload(user, 300);
    const held = await holdImport(failing, { fail: true });
    expect(await held.release()).toBeInstanceOf(Error);
    await addByForm(user, ['Kia Rio']);
    const stale = await app.db.query('SELECT 1 FROM monitoring_item_import_ranges WHERE upload_id = $1', [
      failing,
    ]);
    expect(stale.rows).toHaveLength(1);
    forgetAnchors();
    for (const [what, variant] of Object.entries(VARIANTS)) {
      await readPage(user, variant);
      expect((await readPage(user, variant)).ids, what).toEqual(await expectedPage(user, variant));
    }
    // The failed upload given up; another upload's import clears the reservation and lands on top.
    await app.db.query("UPDATE uploads SET status = 'failed' WHERE id = $1", [failing]);
    const next = await validatedUpload(user, 20);
    expect(await importUpload({ db: app.db, config }, next, { lastAttempt: true })).not.toBeNull();
    const left = await app.db.query<{ upload_id: string }>(
      'SELECT upload_id FROM monitoring_item_import_ranges WHERE organisation_id = $1',
      [user.organisationId],
    );
    expect(left.rows).toEqual([]);
    const newest = await readPage(user, VARIANTS['newest first']!);
    expect(newest.ids).toEqual(await expectedPage(user, VARIANTS['newest first']!));
  });
});
