/**
 * «Last checked» recorded per checked identifier range (0030_range_check_stamps.sql): after runs
 * whose batch edges move, items added after a run, paused, resumed and archived items, own stamps and
 * a scoped recheck, every reader (card, findings card, list and its sort on every path, dashboard)
 * shows what stamping each checked item would have: tracked here item by item from the batches.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { itemLastCheckedSql } from '../../../db/item-last-check.ts';
import { bearer, buildTestApp, createSignedInUser, type TestUser } from '../../../testing/test-app.ts';
import { getLastItemCheckAt } from '../../dashboard/dashboard.queries.ts';
import { findItems, lastCheckOrder } from '../../monitoring/monitoring.queries.ts';
import { addItems, runChecksNow } from '../testing/checks-test-helpers.ts';
import { processCheckBatch } from './check-batch.service.ts';
import { listBatchNumbers, stampCheckedRange } from './runs.queries.ts';
import { planCheckRun, startScopedCheckRun } from './runs.service.ts';

// Three items a batch: adding items between runs moves every later batch edge.
const { app, config } = await buildTestApp({ config: { checkBatchSize: 3 } });

const vin = (n: string) => `XTA${n.padStart(14, '0')}`;

let analyst: TestUser;
/** Item id → what its last check must be (ISO time or null), kept by hand from the batches. */
const expected = new Map<string, string | null>();
const ids = new Map<string, string>();
const kindOf = new Map<string, 'vin' | 'document'>();
const status = new Map<string, string>();

async function add(names: string[], kind: 'vin' | 'document' = 'vin') {
  const added = await addItems(
    app,
    analyst.organisationId,
    names.map((name) =>
      kind === 'vin'
        ? { kind, identifier: vin(name) }
        : { kind, documentType: 'passport_rf', identifier: String(4_500_000_000 + Number(name)) },
    ),
  );
  names.forEach((name, i) => {
    ids.set(name, added[i]!);
    kindOf.set(name, kind);
    expected.set(added[i]!, null);
    status.set(added[i]!, 'active');
  });
}

/** The items each batch of a run checked (active items of its range), stamped with its finish time. */
async function expectRunStamps(runId: string) {
  const { rows } = await app.db.query<{ id: string; at: Date }>(
    `SELECT i.id, b.finished_at AS at FROM check_run_batches b
       JOIN monitoring_items i ON i.organisation_id = $2 AND i.kind = b.kind
        AND i.identifier BETWEEN b.identifier_from AND b.identifier_to AND i.status = 'active'
      WHERE b.run_id = $1`,
    [runId, analyst.organisationId],
  );
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) {
    expected.set(row.id, row.at.toISOString());
  }
}

async function setStatus(name: string, to: 'active' | 'paused' | 'archived') {
  await app.db.query('UPDATE monitoring_items SET status = $2 WHERE id = $1', [ids.get(name), to]);
  status.set(ids.get(name)!, to);
}

const get = async (url: string) =>
  (await app.inject({ method: 'GET', url, headers: bearer(analyst.token) })).json();

/** Every reader against the expectations. */
async function expectReaders() {
  for (const [id, at] of expected) {
    expect((await get(`/api/v1/monitoring/items/${id}`)).lastCheckedAt, id).toBe(at);
    expect((await get(`/api/v1/monitoring/items/${id}/findings`)).lastCheckedAt, id).toBe(at);
  }
  for (const kind of ['vin', 'document'] as const) {
    for (const order of ['asc', 'desc'] as const) {
      for (const statuses of [
        ['active', 'paused', 'archived'],
        ['active'],
        ['paused', 'archived'],
      ] as const) {
        const want = [...expected.entries()]
          .filter(([id]) => kindOf.get([...ids].find(([, v]) => v === id)![0]) === kind)
          .filter(([id]) => (statuses as readonly string[]).includes(status.get(id)!))
          .toSorted(([idA, a], [idB, b]) => {
            // ASC: NULLS LAST; DESC: NULLS FIRST (PostgreSQL's defaults); ties by id.
            const byTime = a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1;
            const byId = idA < idB ? -1 : idA > idB ? 1 : 0;
            return order === 'asc' ? byTime || byId : -byTime || -byId;
          })
          .map(([id]) => id);
        for (const tuning of [
          {},
          { search: 'xta', exactTotalMax: 1, walkRows: 1000 },
          { search: 'xta', exactTotalMax: 1, walkRows: 2 },
        ]) {
          if (tuning.search && kind === 'document') {
            continue;
          }
          const shown: string[] = [];
          for (let offset = 0; offset < want.length + 4; offset += 4) {
            const page = await findItems(app.db, {
              organisationId: analyst.organisationId,
              kind,
              statuses,
              sort: 'lastCheckedAt',
              order,
              limit: 4,
              offset,
              ...tuning,
            });
            shown.push(...page.items.map((item) => item.id));
            for (const item of page.items) {
              expect(item.last_checked_at?.toISOString() ?? null).toBe(expected.get(item.id));
            }
          }
          expect(shown, `${kind} ${order} ${statuses.join()} ${JSON.stringify(tuning)}`).toEqual(want);
        }
      }
    }
  }
  // The inlined derivation (list, cards, report) and the function (triggers) agree.
  const { rows } = await app.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM monitoring_items
      WHERE organisation_id = $1 AND ${itemLastCheckedSql('id')} IS DISTINCT FROM item_last_checked_at(id)`,
    [analyst.organisationId],
  );
  expect(rows[0]!.n).toBe(0);
  const newest =
    [...expected.values()]
      .filter((at) => at !== null)
      .toSorted()
      .at(-1) ?? null;
  expect((await getLastItemCheckAt(app.db, analyst.organisationId))?.toISOString() ?? null).toBe(newest);
}

beforeAll(async () => {
  analyst = await createSignedInUser(app, { role: 'analyst' });
  await add(['10', '20', '30', '40', '50', '60', '70', '80', '90', '99']);
  await add(['1', '2'], 'document');
});

describe('the last check of items recorded per checked range', () => {
  it('is null for every item before any run', async () => {
    await expectReaders();
  });

  it('is the batch time of each item after a run', async () => {
    const run = await runChecksNow(app, config, analyst.token);
    // No dataset is loaded here: the sources fail, the batches still finish and stamp their items.
    expect(run.status).toMatch(/^completed/);
    await expectRunStamps(run.id);
    await expectReaders();
  });

  it('stays null for items added after a run inside its ranges; freezes for paused items; own stamps win', async () => {
    await add(['55', '95', '05']);
    await setStatus('20', 'paused');
    await setStatus('70', 'archived');
    await app.db.query(`UPDATE monitoring_items SET last_checked_at = '2020-01-01T00:00:00Z' WHERE id = $1`, [
      ids.get('80'),
    ]);
    expected.set(ids.get('80')!, '2020-01-01T00:00:00.000Z');
    await expectReaders();
  });

  it('a run with moved batch edges stamps only active items, and trims the older ranges', async () => {
    const run = await runChecksNow(app, config, analyst.token);
    await expectRunStamps(run.id);
    await expectReaders();
    const { rows } = await app.db.query<{ overlaps: number }>(
      `SELECT count(*)::int AS overlaps FROM monitoring_check_ranges a JOIN monitoring_check_ranges b
          ON a.organisation_id = b.organisation_id AND a.kind = b.kind AND a.ctid < b.ctid
         AND a.identifiers && b.identifiers
       WHERE a.organisation_id = $1`,
      [analyst.organisationId],
    );
    expect(rows[0]!.overlaps).toBe(0);
  });

  it('a resumed item keeps its frozen check until a scoped recheck checks it; the rest keep theirs', async () => {
    await setStatus('20', 'active');
    await expectReaders();
    const runId = await startScopedCheckRun({
      db: app.db,
      queue: app.queue,
      config,
      organisationId: analyst.organisationId,
      trigger: 'pledge_registered',
      identifiers: [vin('20'), vin('60')],
    });
    expect(runId).not.toBeNull();
    await planCheckRun({ db: app.db, queue: app.queue, runId: runId! });
    for (const batchNo of await listBatchNumbers(app.db, runId!)) {
      await processCheckBatch({
        db: app.db,
        config,
        queue: app.queue,
        runId: runId!,
        batchNo,
        lastAttempt: true,
      });
    }
    await expectRunStamps(runId!);
    // Only the two scoped vehicles moved.
    const { rows } = await app.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM check_run_batches WHERE run_id = $1',
      [runId],
    );
    expect(rows[0]!.n).toBe(2);
    await expectReaders();
  });

  it('a repeated run writes no per-item row', async () => {
    const versions = async () =>
      (
        await app.db.query<{ item_id: string; xmin: string }>(
          'SELECT item_id, xmin::text FROM monitoring_item_checks WHERE organisation_id = $1 ORDER BY item_id',
          [analyst.organisationId],
        )
      ).rows;
    const before = await versions();
    const run = await runChecksNow(app, config, analyst.token);
    await expectRunStamps(run.id);
    await expectReaders();
    expect(await versions()).toEqual(before);
  });

  it('keeps the status of each item beside its own stamp; the list of some statuses walks only their own stamps', async () => {
    // The paused and archived items of this organisation are unranged (their stamps frozen): the
    // active list's own-stamp half must not read them one by one (0039: ~160 ms a page at 27,000).
    const { rows: mismatched } = await app.db.query(
      `SELECT c.item_id FROM monitoring_item_checks c JOIN monitoring_items i ON i.id = c.item_id
        WHERE i.organisation_id = $1 AND c.item_status IS DISTINCT FROM i.status`,
      [analyst.organisationId],
    );
    expect(mismatched).toEqual([]);
    expect([...status.values()].filter((s) => s !== 'active').length).toBeGreaterThan(0);
    for (const direction of ['ASC', 'DESC'] as const) {
      const { rows } = await app.db.query<{ 'QUERY PLAN': unknown }>(
        `EXPLAIN (FORMAT JSON) ${lastCheckOrder(direction, '25')}`,
        [analyst.organisationId, 'vin', ['active']],
      );
      const plan = JSON.stringify(rows[0]!['QUERY PLAN']);
      expect(plan).not.toContain('"Relation Name":"monitoring_items"');
      expect(plan).toMatch(/"Index Cond":"[^"]*item_status = s\.status/);
    }
  });

  it("turns a range's unranged active items ranged by their check rows alone, not one probe of the item each", async () => {
    // A first run turns every item ranged (a million updates): the item's status is read from its
    // check row (0039), where the status trigger keeps it.
    const statements: { text: string; params: unknown[] }[] = [];
    const client = await app.db.connect();
    try {
      // Stamped in a transaction rolled back: the other tests' expectations stay as they are.
      await client.query('BEGIN');
      const recording = {
        query: (text: string, params: unknown[]) => {
          statements.push({ text, params });
          return client.query(text, params);
        },
      };
      await stampCheckedRange(recording as never, {
        organisationId: analyst.organisationId,
        kind: 'vin',
        identifierFrom: vin('0'),
        identifierTo: vin('99999'),
      });
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
    const turning = statements.find(({ text }) => text.includes('UPDATE monitoring_item_checks'));
    expect(turning).toBeDefined();
    const { rows } = await app.db.query<{ 'QUERY PLAN': unknown }>(
      `EXPLAIN (FORMAT JSON) ${turning!.text}`,
      turning!.params,
    );
    expect(JSON.stringify(rows[0]!['QUERY PLAN'])).not.toContain('"Relation Name":"monitoring_items"');
    await expectReaders();
  });
});
