import { describe, expect, it } from 'vitest';
import { buildTestApp, createSignedInUser } from '../../../testing/test-app.ts';
import { countUnreadEvents } from '../../dashboard/dashboard.queries.ts';
import { insertItem, insertRun } from '../../statistics/testing/statistics-fixtures.ts';
import { findEvents, setEventsRead } from './events.queries.ts';

const { app } = await buildTestApp();

const TYPES = [
  ['wanted_added', 'wanted'],
  ['pledge_registered_other', 'pledges'],
  ['enforcement_opened', 'enforcement'],
] as const;
const SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;

/** Inserts `n` events in one statement (as a check batch does), every third one read. */
async function insertEvents(
  organisationId: string,
  itemIds: string[],
  runId: string,
  n: number,
  tag: string,
) {
  await app.db.query(
    `INSERT INTO monitoring_events (organisation_id, item_id, run_id, source_type, event_type, severity, finding_key,
                                    detected_at, read_at)
     SELECT $1, ($2::uuid[])[1 + g % cardinality($2::uuid[])], $3, ($4::text[])[1 + g % 3], ($5::text[])[1 + g % 3],
            ($6::text[])[1 + g % 4], $7 || g, now() - make_interval(hours => g), CASE WHEN g % 3 = 0 THEN now() END
       FROM generate_series(1, $8::int) g`,
    [
      organisationId,
      itemIds,
      runId,
      TYPES.map(([, source]) => source),
      TYPES.map(([type]) => type),
      SEVERITIES,
      tag,
      n,
    ],
  );
}

/** The unread events recounted from the events themselves, as the screens counted them before. */
async function recount(organisationId: string) {
  const { rows } = await app.db.query<{ event_type: string; severity: string; n: number }>(
    `SELECT event_type, severity, count(*)::int AS n FROM monitoring_events
      WHERE organisation_id = $1 AND read_at IS NULL GROUP BY 1, 2 ORDER BY 1, 2`,
    [organisationId],
  );
  return rows;
}

async function expectCountsEqualRecount(organisationId: string) {
  const expected = await recount(organisationId);
  const total = expected.reduce((sum, row) => sum + row.n, 0);
  const byRollup = (await countUnreadEvents(app.db, organisationId)).toSorted(
    (a, b) => a.event_type.localeCompare(b.event_type) || a.severity.localeCompare(b.severity),
  );
  expect(byRollup).toEqual(expected);
  const page = await findEvents(app.db, { organisationId, limit: 1, offset: 0 });
  expect(page.unread).toBe(total);
  // The list's total with read=false and rollup-answerable filters, against a direct count.
  for (const filter of [
    {},
    { types: ['wanted_added'] },
    { severities: ['high', 'critical'] },
    { sources: ['pledges', 'enforcement'], severities: ['low'] },
  ]) {
    const listed = await findEvents(app.db, { organisationId, ...filter, read: false, limit: 1, offset: 0 });
    const direct = expected
      .filter((row) => !('types' in filter) || filter.types!.includes(row.event_type))
      .filter((row) => !('severities' in filter) || filter.severities!.includes(row.severity))
      .filter(
        (row) =>
          !('sources' in filter) ||
          filter.sources!.includes(TYPES.find(([type]) => type === row.event_type)![1]),
      )
      .reduce((sum, row) => sum + row.n, 0);
    expect(listed.total, JSON.stringify(filter)).toBe(direct);
  }
  return total;
}

describe('unread events rollup (0017)', () => {
  it('equals a recount after new events, read marks, unread marks, deletions and folding', async () => {
    const user = await createSignedInUser(app);
    const org = user.organisationId;
    const items = [
      await insertItem(app.db, org),
      await insertItem(app.db, org),
      await insertItem(app.db, org),
    ];
    const run = await insertRun(app.db, org);
    await insertEvents(org, items, run, 90, 'a-');
    expect(await expectCountsEqualRecount(org)).toBe(60);

    // New events of a later batch.
    await insertEvents(org, items, run, 30, 'b-');
    expect(await expectCountsEqualRecount(org)).toBe(80);

    // A page of events marked read, some of them read already; then some marked unread again.
    const { rows } = await app.db.query<{ id: string }>(
      'SELECT id FROM monitoring_events WHERE organisation_id = $1 ORDER BY finding_key LIMIT 25',
      [org],
    );
    const ids = rows.map((row) => row.id);
    await setEventsRead(app.db, { organisationId: org, ids, read: true, userId: user.id });
    const afterRead = await expectCountsEqualRecount(org);
    expect(afterRead).toBeLessThan(80);
    await setEventsRead(app.db, { organisationId: org, ids: ids.slice(0, 10), read: false, userId: user.id });
    expect(await expectCountsEqualRecount(org)).toBe(afterRead + 10);

    // An item deleted with its events (cascade).
    await app.db.query('DELETE FROM monitoring_items WHERE id = $1', [items[0]]);
    await expectCountsEqualRecount(org);

    // Many small statements (one delta row each), folded by the next reader into one row per group.
    for (let i = 0; i < 70; i++) {
      await insertEvents(org, items.slice(1), run, 1, `c${i}-`);
    }
    await expectCountsEqualRecount(org);
    const { rows: deltas } = await app.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM monitoring_event_unread_counts WHERE organisation_id = $1',
      [org],
    );
    expect(deltas[0]!.n).toBeLessThanOrEqual(TYPES.length * SEVERITIES.length);
    await expectCountsEqualRecount(org);
  });

  it('keeps organisations apart and leaves nothing behind a deleted organisation', async () => {
    const one = (await createSignedInUser(app)).organisationId;
    const two = (await createSignedInUser(app)).organisationId;
    for (const org of [one, two]) {
      await insertEvents(org, [await insertItem(app.db, org)], await insertRun(app.db, org), 12, 'x-');
    }
    expect(await expectCountsEqualRecount(one)).toBe(8);
    await app.db.query('DELETE FROM organisations WHERE id = $1', [two]);
    const { rows } = await app.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM monitoring_event_unread_counts WHERE organisation_id = $1',
      [two],
    );
    expect(rows[0]!.n).toBe(0);
    expect(await expectCountsEqualRecount(one)).toBe(8);
  });
});
