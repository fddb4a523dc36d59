import { describe, expect, it } from 'vitest';
import { buildTestApp, createSignedInUser, type TestUser } from '../../testing/test-app.ts';
import { anchorsRead, forgetAnchors } from './items-anchors.queries.ts';
import { findItems, type ItemSort } from './monitoring.queries.ts';

const { app } = await buildTestApp();

const KEYS: Record<Exclude<ItemSort, 'lastCheckedAt'>, string> = {
  createdAt: 'created_at',
  identifier: 'identifier',
  label: 'label',
  contractNumber: 'contract_number COLLATE "C"',
};
const SORTS = Object.keys(KEYS) as (keyof typeof KEYS)[];

/**
 * `rows` items written with SQL, as the benchmark does: labels repeat (ties broken by id), some
 * labels and contracts are null (they sort last), every 50th item archived, dates out of id order.
 */
async function seed(user: TestUser, rows: number) {
  await app.db.query(
    `INSERT INTO monitoring_items (organisation_id, kind, identifier, label, contract_number, status, origin, created_at)
     SELECT $1, 'vin', 'XTA' || lpad(((g * 7919) % $2)::text, 14, '0'),
            CASE WHEN g % 11 = 0 THEN NULL ELSE (ARRAY['LADA Vesta','Hyundai Solaris','Škoda Rapid'])[1 + g % 3] || ' №' || (g % 97) END,
            CASE WHEN g % 13 = 0 THEN NULL ELSE 'КД-' || (g % 89) END,
            CASE WHEN g % 50 = 0 THEN 'archived' ELSE 'active' END, 'upload',
            now() - make_interval(mins => (g * 37) % 1000)
       FROM generate_series(1, $2::int) g`,
    [user.organisationId, rows],
  );
  await app.db.query('ANALYZE monitoring_items');
}

/** The whole list sorted: the straightforward query the anchored pages must agree with. */
async function expected(user: TestUser, sort: keyof typeof KEYS, order: 'asc' | 'desc') {
  const direction = order.toUpperCase();
  const { rows } = await app.db.query<{ id: string }>(
    `SELECT id FROM monitoring_items WHERE organisation_id = $1 AND kind = 'vin' AND status <> 'archived'
      ORDER BY ${KEYS[sort]} ${direction}, id ${direction}`,
    [user.organisationId],
  );
  return rows.map((row) => row.id);
}

/** The test database, noting every statement with its values. */
function recordingDb() {
  const queries: { text: string; values: unknown[] }[] = [];
  const db = {
    query: ((text: string, values?: unknown[]) => {
      queries.push({ text, values: values ?? [] });
      return app.db.query(text, values);
    }) as typeof app.db.query,
  };
  return { db, queries };
}

const page = (
  db: Parameters<typeof findItems>[0],
  user: TestUser,
  options: { sort: ItemSort; order: 'asc' | 'desc'; offset: number; anchorStep?: number },
) =>
  findItems(db, {
    organisationId: user.organisationId,
    kind: 'vin',
    statuses: ['active', 'paused'],
    limit: 10,
    anchorFrom: 0,
    ...options,
  });

/** Every plan node of an EXPLAIN (FORMAT JSON) plan. */
function nodes(plan: Record<string, unknown>): Record<string, unknown>[] {
  return [plan, ...((plan.Plans as Record<string, unknown>[] | undefined) ?? []).flatMap(nodes)];
}

describe('deep pages of the items list (issue #31)', () => {
  it('a page read from its anchor equals the straightforward page in every sort, direction and offset, and follows changes', async () => {
    forgetAnchors();
    const user = await createSignedInUser(app);
    await seed(user, 300);
    const agree = async (what: string) => {
      for (const sort of SORTS) {
        for (const order of ['asc', 'desc'] as const) {
          const all = await expected(user, sort, order);
          // Pages on, beside and across anchors (every 7th row), near both ends and past the last.
          const offsets = [
            0,
            1,
            6,
            7,
            13,
            50,
            99,
            140,
            146,
            200,
            all.length - 12,
            all.length - 3,
            all.length + 5,
          ];
          for (const offset of offsets) {
            await anchorsRead();
            const result = await page(app.db, user, { sort, order, offset, anchorStep: 7 });
            const where = `${what}: ${sort} ${order} ${offset}`;
            expect(
              result.items.map((item) => item.id),
              where,
            ).toEqual(all.slice(offset, offset + 10));
            expect(result, where).toMatchObject({ total: all.length, totalIsEstimate: false });
          }
        }
      }
    };
    // After each change: the kept anchors (now stale) must not serve a page; then fresh ones.
    const agreeAfterChange = async (what: string) => {
      await agree(`${what}, anchors kept`);
      forgetAnchors();
      await agree(`${what}, anchors read again`);
    };
    await agree('as seeded');
    // Changes move rows across anchors: the kept anchors must not serve the changed list.
    await app.db.query(
      `INSERT INTO monitoring_items (organisation_id, kind, identifier, label, contract_number, origin, created_at)
       VALUES ($1, 'vin', '1A1ANCHOR00000001', 'A first', '0', 'form', now() - interval '10 years'),
              ($1, 'vin', '1A1ANCHOR00000002', NULL, NULL, 'form', now())`,
      [user.organisationId],
    );
    await agreeAfterChange('two items added');
    await app.db.query(
      `UPDATE monitoring_items SET status = 'archived' WHERE organisation_id = $1 AND label LIKE 'LADA Vesta №1%'`,
      [user.organisationId],
    );
    await agreeAfterChange('items archived');
    await app.db.query(
      `UPDATE monitoring_items SET label = NULL, contract_number = 'ZZ', created_at = now() + interval '1 day'
        WHERE organisation_id = $1 AND label LIKE 'Škoda Rapid №2%'`,
      [user.organisationId],
    );
    await agreeAfterChange('labels cleared, contracts and dates changed');
  }, 120_000);

  it('the middle page reads fewer rows than two anchor steps, not the half of the list before it', async () => {
    forgetAnchors();
    const user = await createSignedInUser(app);
    const rows = 4_000;
    await seed(user, rows);
    const step = 100;
    for (const sort of SORTS) {
      for (const order of ['asc', 'desc'] as const) {
        const { db, queries } = recordingDb();
        const offset = Math.floor((rows * 0.98) / 2);
        // The first call reads the anchors (one pass over the order); the next reads the page from them.
        await page(db, user, { sort, order, offset, anchorStep: step });
        await anchorsRead();
        queries.length = 0;
        const result = await page(db, user, { sort, order, offset, anchorStep: step });
        expect(result.items.map((item) => item.id)).toEqual(
          (await expected(user, sort, order)).slice(offset, offset + 10),
        );
        expect(queries, `${sort} ${order}`).toHaveLength(1);
        const { text, values } = queries[0]!;
        const { rows: explained } = await app.db.query<{ 'QUERY PLAN': [{ Plan: Record<string, unknown> }] }>(
          `EXPLAIN (ANALYZE, FORMAT JSON) ${text}`,
          values,
        );
        const plan = nodes(explained[0]!['QUERY PLAN'][0].Plan);
        const where = `${sort} ${order}: ${JSON.stringify(plan.map((node) => [node['Node Type'], node['Actual Rows']]))}`;
        // No node sees more than the walk from the anchor (< step + page), none sorts the list.
        expect(Math.max(...plan.map((node) => Number(node['Actual Rows'])))).toBeLessThan(step + 10 + 1);
        expect(
          plan.filter((node) => node['Node Type'] === 'Seq Scan'),
          where,
        ).toEqual([]);
      }
    }
  }, 60_000);
});
