import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createSignedInUser } from '../../../testing/test-app.ts';
import { insertEvent, insertItem, insertRun } from '../../statistics/testing/statistics-fixtures.ts';
import { type EventFilter, findEvents } from './events.queries.ts';

const { app } = await buildTestApp();

const EVENTS = 120;
let organisationId: string;

beforeAll(async () => {
  organisationId = (await createSignedInUser(app)).organisationId;
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
