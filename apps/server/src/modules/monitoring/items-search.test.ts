import { computeVinCheckDigit } from '@pledgewatch/identifiers';
import { describe, expect, it } from 'vitest';
import type { Queryable } from '../../db/pool.ts';
import { bearer, buildTestApp, createSignedInUser, type TestUser } from '../../testing/test-app.ts';
import { findItems, type ItemSort, searchWalkRows } from './monitoring.queries.ts';

const { app } = await buildTestApp();

let serial = 300000;
function makeVin(wmi: string): string {
  const body = `${wmi}210740PY${String(++serial).padStart(6, '0')}`;
  return body.slice(0, 8) + computeVinCheckDigit(body) + body.slice(9);
}
const get = (url: string, user: TestUser) => app.inject({ method: 'GET', url, headers: bearer(user.token) });

const KEYS: Record<ItemSort, string> = {
  createdAt: 'm.created_at',
  identifier: 'm.identifier',
  label: 'm.label',
  contractNumber: 'm.contract_number COLLATE "C"',
  lastCheckedAt: 'item_last_checked_at(m.id)',
};

/**
 * A portfolio like the benchmark's: a frequent term ("solaris": a third of the items, every one of
 * them at the end of the VIN order and in the middle of the label order) and a rare contract term.
 */
async function seedPortfolio(user: TestUser) {
  const rows = Array.from({ length: 90 }, (_, i) => {
    const solaris = i % 3 === 1;
    return {
      vin: makeVin(solaris ? 'Z94' : i % 3 === 0 ? 'LGW' : 'XTA'),
      label: solaris ? `Hyundai Solaris №${i}` : i % 3 === 0 ? `Haval Jolion №${i}` : `LADA Vesta №${i}`,
      contractNumber: `КД-2025/${String(i).padStart(7, '0')}`,
    };
  });
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/monitoring/regular-check/form-vin',
    payload: { rows },
    headers: bearer(user.token),
  });
  expect(response.json().counts.added).toBe(90);
  await app.db.query(
    `UPDATE monitoring_items SET last_checked_at = now() - make_interval(mins => right(identifier, 2)::int % 7)
      WHERE organisation_id = $1 AND right(identifier, 1) < '6'`,
    [user.organisationId],
  );
}

/** Every match of the term, sorted: the straightforward query the fast paths must agree with. */
async function expected(user: TestUser, search: string, sort: ItemSort, order: 'asc' | 'desc') {
  const direction = order.toUpperCase();
  const { rows } = await app.db.query<{ id: string }>(
    `SELECT m.id FROM monitoring_items m JOIN monitoring_item_checks c ON c.item_id = m.id
      WHERE m.organisation_id = $1 AND m.kind = 'vin' AND m.status <> 'archived'
        AND lower(m.identifier || ' ' || coalesce(m.label, '') || ' ' || coalesce(m.contract_number, '')) LIKE $2
      ORDER BY ${KEYS[sort]} ${direction}, m.id ${direction}`,
    [user.organisationId, `%${search}%`],
  );
  return rows.map((row) => row.id);
}

/** The test database, noting the text of every statement it runs. */
function recordingDb() {
  const queries: string[] = [];
  const db = {
    query: ((text: string, values?: unknown[]) => {
      queries.push(text);
      return app.db.query(text, values);
    }) as typeof app.db.query,
  };
  return { db, queries };
}

/** A page of 10 of the frequent term's matches, straight from the query layer. */
const solarisPage = (
  db: Queryable,
  user: TestUser,
  options: Pick<Parameters<typeof findItems>[1], 'sort' | 'order' | 'offset'> &
    Partial<Parameters<typeof findItems>[1]>,
) =>
  findItems(db, {
    organisationId: user.organisationId,
    kind: 'vin',
    statuses: ['active', 'paused'],
    search: 'solaris',
    limit: 10,
    ...options,
  });

describe('items search (issue #15)', () => {
  it('the API returns exactly the straightforward result for a frequent and a rare term in every sort', async () => {
    const user = await createSignedInUser(app);
    await seedPortfolio(user);
    for (const search of ['solaris', 'кд-2025/000004', 'z94']) {
      for (const sort of Object.keys(KEYS) as ItemSort[]) {
        for (const order of ['asc', 'desc'] as const) {
          const all = await expected(user, search, sort, order);
          expect(all.length, search).toBeGreaterThan(0);
          for (const page of [1, 2, 3]) {
            const body = (
              await get(
                `/api/v1/monitoring/items?entity=vin&search=${encodeURIComponent(search)}&sort=${sort}&order=${order}&page=${page}&pageSize=25`,
                user,
              )
            ).json();
            const what = `${search} ${sort} ${order} page ${page}`;
            expect(
              body.items.map((item: { id: string }) => item.id),
              what,
            ).toEqual(all.slice((page - 1) * 25, page * 25));
            expect(body, what).toMatchObject({ total: all.length, totalIsEstimate: false });
          }
        }
      }
    }
  });

  it('the frequent-term path (bounded walk, then sorting the matches) agrees in every sort', async () => {
    const user = await createSignedInUser(app);
    await seedPortfolio(user);
    for (const sort of Object.keys(KEYS) as ItemSort[]) {
      for (const order of ['asc', 'desc'] as const) {
        const all = await expected(user, 'solaris', sort, order);
        for (let offset = 0; offset < all.length + 10; offset += 10) {
          // The default walk length (from the counts table and the estimate) and the exact path.
          for (const tuning of [{ exactTotalMax: 1 }, {}]) {
            const page = await solarisPage(app.db, user, { sort, order, offset, ...tuning });
            expect(
              page.items.map((item) => item.id),
              `${sort} ${order} ${offset} ${JSON.stringify(tuning)}`,
            ).toEqual(all.slice(offset, offset + 10));
          }
        }
      }
    }
  });

  it('a frequent term clustered far down the order: sorted once, then pages and the exact total from the kept stretch, which follows every change', async () => {
    const user = await createSignedInUser(app);
    await seedPortfolio(user);
    const { db, queries } = recordingDb();
    // A walk of one row never holds a page of 10: every page comes from the sorted matches, kept
    // in stretches of 7 so that pages cross them.
    const page = (sort: ItemSort, order: 'asc' | 'desc', offset: number) =>
      solarisPage(db, user, { sort, order, offset, exactTotalMax: 1, walkRows: 1, sortedStretch: 7 });
    const sorts = (Object.keys(KEYS) as ItemSort[]).filter((sort) => sort !== 'lastCheckedAt');
    const agree = async (what: string) => {
      for (const sort of sorts) {
        for (const order of ['asc', 'desc'] as const) {
          const all = await expected(user, 'solaris', sort, order);
          for (let offset = 0; offset < all.length + 10; offset += 3) {
            for (const call of ['sorted', 'kept']) {
              queries.length = 0;
              const result = await page(sort, order, offset);
              const where = `${what}: ${sort} ${order} ${offset} ${call}`;
              expect(
                result.items.map((item) => item.id),
                where,
              ).toEqual(all.slice(offset, offset + 10));
              expect(result, where).toMatchObject({ total: all.length, totalIsEstimate: false });
              if (call === 'kept') {
                // The repeat reads the page by its ids: no pass over the matches, no walk of the order.
                expect(
                  queries.filter(
                    (text) => text.includes('count(*) OVER ()') || text.includes('search_text FROM'),
                  ),
                  where,
                ).toEqual([]);
              }
            }
          }
        }
      }
    };
    await agree('as seeded');
    // A new match that sorts first by VIN, label, contract and date.
    await app.db.query(
      `INSERT INTO monitoring_items (organisation_id, kind, identifier, label, contract_number, origin, created_at)
       VALUES ($1, 'vin', '1A1SOLARIS0000001', 'A Hyundai Solaris', '0', 'form', now() - interval '10 years')`,
      [user.organisationId],
    );
    await agree('a match added');
    await app.db.query(
      `UPDATE monitoring_items SET label = 'Kia Rio' WHERE organisation_id = $1 AND label = 'Hyundai Solaris №4'`,
      [user.organisationId],
    );
    await agree('a match renamed away');
    await app.db.query(
      `UPDATE monitoring_items SET status = 'archived' WHERE organisation_id = $1 AND label = 'Hyundai Solaris №7'`,
      [user.organisationId],
    );
    await agree('a match archived');
    await app.db.query(
      `UPDATE monitoring_items SET created_at = now() + interval '1 day', contract_number = 'ZZ'
        WHERE organisation_id = $1 AND label = 'Hyundai Solaris №10'`,
      [user.organisationId],
    );
    await agree('a match re-dated and its contract renumbered');
    await app.db.query(
      `DELETE FROM monitoring_items WHERE organisation_id = $1 AND label = 'Hyundai Solaris №13'`,
      [user.organisationId],
    );
    await agree('a match deleted');
    // Many small edits fold the organisation's revision rows; pages stay right.
    for (let i = 0; i < 70; i++) {
      await app.db.query(
        `UPDATE monitoring_items SET label = label || '.' WHERE organisation_id = $1 AND label = 'LADA Vesta №2'`,
        [user.organisationId],
      );
      await app.db.query(
        `UPDATE monitoring_items SET label = 'LADA Vesta №2' WHERE organisation_id = $1 AND label LIKE 'LADA Vesta №2.'`,
        [user.organisationId],
      );
    }
    await agree('after many edits');
  });

  it('concurrent first pages of a frequent term wait for one sort of its matches, and each gets the right page', async () => {
    const user = await createSignedInUser(app);
    await seedPortfolio(user);
    const { db, queries } = recordingDb();
    const all = await expected(user, 'solaris', 'label', 'asc');
    const page = (offset: number) =>
      solarisPage(db, user, {
        sort: 'label',
        order: 'asc',
        offset,
        exactTotalMax: 1,
        walkRows: 1,
        sortedStretch: 20,
      });
    // Eight requests at once, as after an upload's commit under load: pages 0 and 10 share a stretch.
    const results = await Promise.all([0, 10, 0, 10, 0, 10, 0, 10].map(page));
    results.forEach((result, i) => {
      const offset = (i % 2) * 10;
      expect(result.items.map((item) => item.id)).toEqual(all.slice(offset, offset + 10));
      expect(result.total).toBe(all.length);
    });
    expect(queries.filter((text) => text.includes('count(*) OVER ()'))).toHaveLength(1);
    // The list changes: the next burst sorts once more, and sees the change.
    await app.db.query(
      `UPDATE monitoring_items SET label = 'A Hyundai Solaris' WHERE organisation_id = $1 AND label = 'Hyundai Solaris №7'`,
      [user.organisationId],
    );
    queries.length = 0;
    const after = await expected(user, 'solaris', 'label', 'asc');
    const again = await Promise.all([0, 0, 0, 0].map(page));
    for (const result of again) {
      expect(result.items.map((item) => item.id)).toEqual(after.slice(0, 10));
    }
    expect(queries.filter((text) => text.includes('count(*) OVER ()'))).toHaveLength(1);
  });

  it('a list without search pages past its middle from the other end, exactly like the straightforward query', async () => {
    const user = await createSignedInUser(app);
    await seedPortfolio(user);
    // Archived items are counted apart (monitoring_item_counts): the offset from the end must skip them.
    await app.db.query(
      `UPDATE monitoring_items SET status = 'archived' WHERE organisation_id = $1 AND label LIKE 'Haval Jolion №1%'`,
      [user.organisationId],
    );
    const { db, queries } = recordingDb();
    for (const sort of (Object.keys(KEYS) as ItemSort[]).filter((key) => key !== 'lastCheckedAt')) {
      for (const order of ['asc', 'desc'] as const) {
        const all = await expected(user, '', sort, order);
        expect(all.length).toBe(87);
        for (let offset = 0; offset < all.length + 10; offset += 7) {
          queries.length = 0;
          const page = await findItems(db, {
            organisationId: user.organisationId,
            kind: 'vin',
            statuses: ['active', 'paused'],
            sort,
            order,
            limit: 10,
            offset,
            reverseFrom: 1,
          });
          const what = `${sort} ${order} ${offset}`;
          expect(
            page.items.map((item) => item.id),
            what,
          ).toEqual(all.slice(offset, offset + 10));
          expect(page, what).toMatchObject({ total: all.length, totalIsEstimate: false });
          const fromTheEnd = queries.some((text) => text.includes(`id ${order === 'asc' ? 'DESC' : 'ASC'}`));
          expect(fromTheEnd, what).toBe(offset > 0 && 2 * offset + 10 > all.length);
        }
      }
    }
  });

  it('sorted by identifier: documents sharing a number keep the tie-break by id on every page, from either end, through the sort index', async () => {
    const user = await createSignedInUser(app);
    await seedPortfolio(user);
    // Three numbers, each held by documents of several types, plus another organisation's documents.
    const other = await createSignedInUser(app);
    for (const organisationId of [user.organisationId, other.organisationId]) {
      await app.db.query(
        `INSERT INTO monitoring_items (organisation_id, kind, document_type, identifier, status, origin)
         SELECT $1, 'document', t, n, CASE WHEN t = 'pts' AND n = '4506123457' THEN 'archived' ELSE 'active' END, 'upload'
           FROM unnest(ARRAY['4506123456', '4506123457', '7707083893']) n,
                unnest(ARRAY['passport_rf', 'inn', 'pts', 'sts', 'ogrn']) t`,
        [organisationId],
      );
    }
    const { db, queries } = recordingDb();
    for (const [kind, statuses] of [
      ['document', ['active', 'paused']],
      ['document', ['active', 'paused', 'archived']],
      ['vin', ['active']],
    ] as const) {
      for (const order of ['asc', 'desc'] as const) {
        const direction = order.toUpperCase();
        const { rows } = await app.db.query<{ id: string }>(
          `SELECT id FROM monitoring_items WHERE organisation_id = $1 AND kind = $2 AND status = ANY($3::text[])
            ORDER BY identifier ${direction}, id ${direction}`,
          [user.organisationId, kind, statuses],
        );
        const all = rows.map((row) => row.id);
        for (let offset = 0; offset < all.length + 4; offset += 3) {
          const page = await findItems(db, {
            organisationId: user.organisationId,
            kind,
            statuses,
            sort: 'identifier',
            order,
            limit: 4,
            offset,
            reverseFrom: 1,
          });
          const what = `${kind} ${statuses} ${order} ${offset}`;
          expect(
            page.items.map((item) => item.id),
            what,
          ).toEqual(all.slice(offset, offset + 4));
          expect(page.total, what).toBe(all.length);
        }
      }
    }
    // The page's statement orders exactly as the sort index does: no sort step even when sorting is
    // all but forbidden (before 0038 only the identity key, with no id among its columns, came close).
    queries.length = 0;
    await findItems(db, {
      organisationId: user.organisationId,
      kind: 'document',
      statuses: ['active', 'paused'],
      sort: 'identifier',
      order: 'desc',
      limit: 4,
      offset: 0,
    });
    // The walk of the sort order: the rows skipped and the page's ids.
    const statement = queries
      .join('\n')
      .match(
        /SELECT id FROM \(SELECT id, identifier FROM monitoring_items WHERE [^()]*\([^()]*\)[^()]*\) w\s+ORDER BY identifier DESC, id DESC LIMIT \$4 OFFSET \$5/,
      )?.[0];
    expect(statement).toBeDefined();
    const client = await app.db.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL enable_sort = off');
      await client.query('SET LOCAL enable_incremental_sort = off');
      await client.query('SET LOCAL enable_seqscan = off');
      const plan = (
        await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${statement}`, [
          user.organisationId,
          'document',
          ['active', 'paused'],
          4,
          0,
        ])
      ).rows
        .map((row) => row['QUERY PLAN'])
        .join('\n');
      expect(plan).toContain('monitoring_items_sort_identifier_idx');
      expect(plan).not.toContain('Sort');
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });

  it('a contract number is looked up by its distinctive digits alone: the trigram index never reads its common parts', async () => {
    const user = await createSignedInUser(app);
    await seedPortfolio(user);
    const statements: { text: string; values: unknown[] }[] = [];
    const db = {
      query: ((text: string, values?: unknown[]) => {
        statements.push({ text, values: values ?? [] });
        return app.db.query(text, values);
      }) as typeof app.db.query,
    };
    const page = await findItems(db, {
      organisationId: user.organisationId,
      kind: 'vin',
      statuses: ['active', 'paused'],
      search: 'КД-2025/0000042',
      sort: 'createdAt',
      order: 'desc',
      limit: 25,
      offset: 0,
    });
    // The same rows as the whole text matched everywhere.
    expect(page.items.map((item) => item.id)).toEqual(
      await expected(user, 'кд-2025/0000042', 'createdAt', 'desc'),
    );
    expect(page.total).toBe(1);
    const search = statements.find(
      (statement) => statement.text.includes('strpos') && !statement.text.trimStart().startsWith('EXPLAIN'),
    );
    expect(search).toBeDefined();
    // «кд» and «2025» are in every contract: asked of the trigram index, they cost their whole posting
    // lists. The only LIKE patterns (what the index is asked) are the distinctive digits.
    const likePatterns = search!.values.filter((value) => typeof value === 'string' && value.startsWith('%'));
    expect(likePatterns.length).toBeGreaterThan(0);
    expect(new Set(likePatterns)).toEqual(new Set(['%0000042%']));
  });

  it('a large import leaves at most 4 MB of search entries unmerged: searches meanwhile stay at their usual cost', async () => {
    const user = await createSignedInUser(app);
    const client = await app.db.connect();
    try {
      await client.query('BEGIN');
      // One statement, as an upload's import: 20,000 rows put ~60,000 trigram entries in the index.
      await client.query(
        `INSERT INTO monitoring_items (organisation_id, kind, identifier, label, contract_number, origin)
         SELECT $1, 'vin', 'ZZB' || lpad(g::text, 14, '0'), 'Lada Granta №' || g, 'ДЛ-2026/' || lpad(g::text, 7, '0'), 'upload'
           FROM generate_series(1, 20000) g`,
        [user.organisationId],
      );
      // What every search would read besides the index proper (the pages the merge takes out).
      const { rows } = await client.query<{ pages: number }>(
        `SELECT gin_clean_pending_list('monitoring_items_search_text_idx'::regclass) AS pages`,
      );
      expect(rows[0]!.pages).toBeGreaterThanOrEqual(0);
      expect(rows[0]!.pages).toBeLessThanOrEqual((4 * 1024) / 8);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });

  it('searches the label and contract as edited: the stored search text follows the row', async () => {
    const user = await createSignedInUser(app);
    await seedPortfolio(user);
    const { rows } = await app.db.query<{ id: string }>(
      `UPDATE monitoring_items SET label = 'Kia Rio переоформлен', contract_number = 'ДЛ-77/2026'
        WHERE organisation_id = $1 AND contract_number = 'КД-2025/0000005' RETURNING id`,
      [user.organisationId],
    );
    for (const search of ['rio переоформлен', 'дл-77/2026']) {
      const body = (
        await get(`/api/v1/monitoring/items?entity=vin&search=${encodeURIComponent(search)}`, user)
      ).json();
      expect(body.items.map((item: { id: string }) => item.id)).toEqual([rows[0]!.id]);
    }
    const old = (
      await get(`/api/v1/monitoring/items?entity=vin&search=${encodeURIComponent('кд-2025/0000005')}`, user)
    ).json();
    expect(old.total).toBe(0);
  });

  it('walks a few times the rows that would hold the page, within bounds', () => {
    expect(searchWalkRows({ scopeRows: 1_000_000, matches: 200_000, pageEnd: 25 })).toBe(2_000);
    expect(searchWalkRows({ scopeRows: 1_000_000, matches: 20_000, pageEnd: 50 })).toBe(10_000);
    expect(searchWalkRows({ scopeRows: 1_000_000, matches: 10_000, pageEnd: 500 })).toBe(20_000);
    expect(searchWalkRows({ scopeRows: 0, matches: 0, pageEnd: 25 })).toBe(2_000);
  });
});
