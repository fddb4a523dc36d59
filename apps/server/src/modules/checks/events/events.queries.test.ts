import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, createSignedInUser } from '../../../testing/test-app.ts';
import { insertEvent, insertItem, insertRun } from '../../statistics/testing/statistics-fixtures.ts';
import { type EventFilter, findEvents } from './events.queries.ts';

const { app } = await buildTestApp();

const EVENTS = 120;
let organisationId: string;
let token: string;

beforeAll(async () => {
  const user = await createSignedInUser(app);
  organisationId = user.organisationId;
  token = user.token;
  const vin = await insertItem(app.db, organisationId, { label: 'Lada Vesta' });
  const other = await insertItem(app.db, organisationId, { label: 'Kia Rio' });
  const document = await insertItem(app.db, organisationId, { kind: 'document' });
  const run = await insertRun(app.db, organisationId);
  const vinEvents = [
    ['wanted_added', 'wanted'],
    ['pledge_registered_other', 'pledges'],
    ['restriction_added', 'restrictions'],
  ] as const;
  for (let i = 0; i < EVENTS; i++) {
    const onDocument = i % 5 === 0;
    const [type, source] = onDocument ? (['enforcement_opened', 'enforcement'] as const) : vinEvents[i % 3]!;
    // Spread over ten days, at hours that cross the Moscow and UTC midnights.
    const detectedAt = new Date(Date.UTC(2026, 2, 1 + (i % 10), (i * 7) % 24, i % 60)).toISOString();
    await insertEvent(app.db, {
      organisationId,
      itemId: onDocument ? document : i % 2 ? vin : other,
      runId: run,
      type,
      source,
      severity: (['low', 'medium', 'high', 'critical'] as const)[i % 4],
      detectedAt,
      read: i % 3 !== 0,
    });
  }
  // Another organisation's events are never counted.
  const stranger = (await createSignedInUser(app)).organisationId;
  const strangerItem = await insertItem(app.db, stranger);
  const strangerRun = await insertRun(app.db, stranger);
  for (let i = 0; i < 5; i++) {
    await insertEvent(app.db, {
      organisationId: stranger,
      itemId: strangerItem,
      runId: strangerRun,
      type: 'wanted_added',
      source: 'wanted',
      detectedAt: '2026-03-03T12:00:00Z',
    });
  }
});

/** The same filter as a plain count over the events and their items. */
async function directCount(filter: EventFilter): Promise<number> {
  const search = filter.search ? `%${filter.search.replace(/[\s-]+/g, '').toLowerCase()}%` : null;
  const { rows } = await app.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM monitoring_events e JOIN monitoring_items i ON i.id = e.item_id
      WHERE e.organisation_id = $1
        AND ($2::timestamptz IS NULL OR e.detected_at >= $2) AND ($3::timestamptz IS NULL OR e.detected_at < $3)
        AND ($4::text[] IS NULL OR e.event_type = ANY($4)) AND ($5::text[] IS NULL OR e.severity = ANY($5))
        AND ($6::text[] IS NULL OR e.source_type = ANY($6)) AND ($7::boolean IS NULL OR (e.read_at IS NOT NULL) = $7)
        AND ($8::text IS NULL OR lower(i.label) LIKE $8 OR lower(i.identifier) LIKE $8)`,
    [
      filter.organisationId,
      filter.from ?? null,
      filter.to ?? null,
      filter.types ?? null,
      filter.severities ?? null,
      filter.sources ?? null,
      filter.read ?? null,
      search,
    ],
  );
  return rows[0]!.n;
}

describe('events list total', () => {
  it('equals a direct count for every kind of filter', async () => {
    const filters: Omit<EventFilter, 'organisationId'>[] = [
      {},
      { types: ['wanted_added'] },
      { sources: ['pledges', 'enforcement'] },
      { types: ['wanted_added', 'restriction_added'], sources: ['wanted'] },
      // Whole Moscow days (midnight +03:00), as the events screen sends a period.
      { from: '2026-03-02T21:00:00.000Z', to: '2026-03-05T21:00:00.000Z' },
      { from: '2026-03-03T00:00:00+03:00', types: ['pledge_registered_other'] },
      { to: '2026-03-04T00:00:00+03:00' },
      // Not on a Moscow midnight: counted from the events themselves.
      { from: '2026-03-03T00:00:00Z', to: '2026-03-06T10:30:00Z' },
      { from: '2026-03-03T05:00:00Z', to: '2026-03-03T19:00:00Z' },
      { from: '2026-03-03T05:00:00Z', to: '2026-03-04T05:00:00Z', types: ['wanted_added'] },
      { from: '2026-03-04T12:00:00Z', to: '2026-03-02T12:00:00Z' },
      { to: '2026-03-05T13:17:00Z', sources: ['pledges'] },
      { from: '2026-03-06T20:59:59Z' },
      { severities: ['high', 'critical'] },
      { severities: ['low'], types: ['wanted_added', 'enforcement_opened'], sources: ['wanted'] },
      {
        severities: ['medium', 'critical'],
        from: '2026-03-02T21:00:00.000Z',
        to: '2026-03-05T21:00:00.000Z',
      },
      { severities: ['high'], from: '2026-03-03T00:00:00Z' },
      { severities: ['high'], read: false },
      { read: false },
      { read: true, sources: ['wanted'] },
      { search: 'vesta' },
      { search: 'kia', types: ['pledge_registered_other'] },
    ];
    for (const filter of filters) {
      const full = { organisationId, ...filter };
      const { total } = await findEvents(app.db, { ...full, limit: 5, offset: 0 });
      expect(total, JSON.stringify(filter)).toBe(await directCount(full));
    }
    expect((await findEvents(app.db, { organisationId, limit: 5, offset: 0 })).total).toBe(EVENTS);
  });

  it('stays equal to a direct count when an item goes with its events', async () => {
    const owner = (await createSignedInUser(app)).organisationId;
    const [kept, gone] = [await insertItem(app.db, owner), await insertItem(app.db, owner)];
    const run = await insertRun(app.db, owner);
    for (let i = 0; i < 12; i++) {
      await insertEvent(app.db, {
        organisationId: owner,
        itemId: i % 2 ? kept : gone,
        runId: run,
        type: 'wanted_added',
        source: 'wanted',
        severity: (['low', 'high', 'critical'] as const)[i % 3],
        detectedAt: new Date(Date.UTC(2026, 2, 1 + (i % 4), 10)).toISOString(),
      });
    }
    await app.db.query('DELETE FROM monitoring_items WHERE id = $1', [gone]);
    for (const filter of [{ severities: ['high', 'critical'] }, { severities: ['low'] }, { read: false }]) {
      const full = { organisationId: owner, ...filter };
      const { total } = await findEvents(app.db, { ...full, limit: 5, offset: 0 });
      expect(total, JSON.stringify(filter)).toBe(await directCount(full));
      expect(total).toBeGreaterThan(0);
    }
  });

  it('counts the unfiltered list without reading every event', async () => {
    // A year of a million items' events is millions of rows: the most visited list must not count
    // them one by one. Measured as rows this backend reads from the events table for one page.
    // An organisation whose events are all read, so the separate unread figure reads nothing.
    const owner = (await createSignedInUser(app)).organisationId;
    const item = await insertItem(app.db, owner);
    const run = await insertRun(app.db, owner);
    for (let i = 0; i < EVENTS; i++) {
      await insertEvent(app.db, {
        organisationId: owner,
        itemId: item,
        runId: run,
        type: 'wanted_added',
        source: 'wanted',
        detectedAt: new Date(Date.UTC(2026, 2, 1 + (i % 20), i % 24)).toISOString(),
        severity: i % 2 ? 'high' : 'low',
        read: true,
      });
    }
    const client = await app.db.connect();
    try {
      await client.query('BEGIN');
      // Index paths only, so the page itself reads about its own rows whatever the table's size.
      await client.query('SET LOCAL enable_seqscan = off');
      const reads = async () =>
        (
          await client.query<{ n: number }>(
            // Rows of sequential scans plus entries returned by any of the table's indexes.
            `SELECT pg_stat_get_xact_tuples_returned('monitoring_events'::regclass)
                    + (SELECT sum(pg_stat_get_xact_tuples_returned(indexrelid)) FROM pg_index
                        WHERE indrelid = 'monitoring_events'::regclass) AS n`,
          )
        ).rows[0]!.n;
      for (const filter of [
        {},
        { severities: ['high', 'critical'] },
        { from: '2026-03-05T10:00:00Z', to: '2026-03-15T03:00:00Z' },
      ]) {
        const before = await reads();
        const page = await findEvents(client, { organisationId: owner, ...filter, limit: 5, offset: 0 });
        const read = (await reads()) - before;
        expect(page.total, JSON.stringify(filter)).toBe(
          await directCount({ organisationId: owner, ...filter }),
        );
        expect(read, JSON.stringify(filter)).toBeLessThan(EVENTS / 4);
      }
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });
});

describe('events list search', () => {
  it('matches «%» and «_» as themselves, not as LIKE wildcards', async () => {
    const owner = (await createSignedInUser(app)).organisationId;
    const run = await insertRun(app.db, owner);
    const labels = ['Скидка 50% Vesta', 'fleet_7 Rio', 'Kia Ceed', 'Lada Granta'];
    for (const label of labels) {
      const itemId = await insertItem(app.db, owner, { label });
      await insertEvent(app.db, {
        organisationId: owner,
        itemId,
        runId: run,
        type: 'wanted_added',
        source: 'wanted',
        detectedAt: '2026-03-03T12:00:00Z',
      });
    }
    const labelsFound = async (search: string) =>
      (await findEvents(app.db, { organisationId: owner, search, limit: 10, offset: 0 })).items
        .map((event) => event.item_label)
        .sort();
    expect(await labelsFound('%')).toEqual(['Скидка 50% Vesta']);
    expect(await labelsFound('_')).toEqual(['fleet_7 Rio']);
    // A lone wildcard once matched every event; a plain search still finds by substring.
    expect(await labelsFound('a%a')).toEqual([]);
    expect(await labelsFound('ceed')).toEqual(['Kia Ceed']);
  });
});

const RANK = { low: 1, medium: 2, high: 3, critical: 4 } as const;

describe('events list sorting', () => {
  it('sorts by importance, type or source in either direction, ties by time in the same direction', async () => {
    const all = { organisationId, limit: EVENTS, offset: 0 };
    const bySeverity = (await findEvents(app.db, { ...all, sort: 'severity', order: 'desc' })).items;
    const key = (e: (typeof bySeverity)[number]) => [RANK[e.severity], e.detected_at.getTime()];
    for (let i = 1; i < bySeverity.length; i++) {
      const [rankA, timeA] = key(bySeverity[i - 1]!);
      const [rankB, timeB] = key(bySeverity[i]!);
      expect(rankA! > rankB! || (rankA === rankB && timeA! >= timeB!)).toBe(true);
    }
    expect(bySeverity[0]!.severity).toBe('critical');
    const ascending = (await findEvents(app.db, { ...all, sort: 'severity', order: 'asc' })).items;
    expect(ascending.map((e) => e.id)).toEqual(bySeverity.map((e) => e.id).reverse());
    const byType = (await findEvents(app.db, { ...all, sort: 'type', order: 'asc' })).items.map(
      (e) => e.event_type,
    );
    expect(byType).toEqual([...byType].sort());
    const bySource = (await findEvents(app.db, { ...all, sort: 'source', order: 'desc' })).items.map(
      (e) => e.source_type,
    );
    expect(bySource).toEqual([...bySource].sort().reverse());
    // The default stays newest first.
    const plain = (await findEvents(app.db, all)).items.map((e) => e.detected_at.getTime());
    expect(plain).toEqual([...plain].sort((a, b) => b - a));
  });

  it('reads a sorted page through its index, not by sorting every event', async () => {
    const client = await app.db.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL enable_seqscan = off');
      await client.query('SET LOCAL enable_sort = off');
      for (const sort of ['severity', 'type', 'source'] as const) {
        const { rows } = await client.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN SELECT e.id FROM monitoring_events e WHERE e.organisation_id = $1
            ORDER BY ${
              sort === 'severity'
                ? `(CASE e.severity WHEN 'low' THEN 1 WHEN 'medium' THEN 2 WHEN 'high' THEN 3 WHEN 'critical' THEN 4 ELSE 0 END)`
                : sort === 'type'
                  ? 'e.event_type'
                  : 'e.source_type'
            } DESC, e.detected_at DESC, e.id DESC LIMIT 5`,
          [organisationId],
        );
        const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
        expect(plan, sort).toContain(`monitoring_events_org_${sort}_idx`);
        expect(plan, sort).not.toMatch(/\bSort\b/);
      }
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });

  it('validates sort and order in the query with a Russian message', async () => {
    const bad = await app.inject({
      method: 'GET',
      url: '/api/v1/monitoring/events/items?sort=item&order=up',
      headers: bearer(token),
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('Сортировка: detectedAt, severity, type или source');
    const good = await app.inject({
      method: 'GET',
      url: '/api/v1/monitoring/events/items?sort=severity&order=asc&pageSize=3',
      headers: bearer(token),
    });
    expect(good.statusCode, good.body).toBe(200);
    expect(good.json().items.map((e: { severity: string }) => e.severity)).toEqual(['low', 'low', 'low']);
  });
});
