import { REPORT_HEADERS } from '@pledgewatch/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, createSignedInUser, type TestUser } from '../../../testing/test-app.ts';
import { insertEvent, insertItem, insertRun } from '../../statistics/testing/statistics-fixtures.ts';

const { app } = await buildTestApp();

const markByFilter = (user: TestUser, payload: unknown) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/monitoring/events/read-by-filter',
    payload: payload as never,
    headers: bearer(user.token),
  });

let analyst: TestUser;
let viewer: TestUser;
let stranger: TestUser;
let fleetItem: string;
const ids: Record<string, string> = {};

/** Which of the named events are read now. */
async function readNames(): Promise<string[]> {
  const { rows } = await app.db.query<{ id: string }>(
    'SELECT id FROM monitoring_events WHERE id = ANY($1::uuid[]) AND read_at IS NOT NULL',
    [Object.values(ids)],
  );
  const read = new Set(rows.map((row) => row.id));
  return Object.keys(ids)
    .filter((name) => read.has(ids[name]!))
    .sort();
}

beforeAll(async () => {
  analyst = await createSignedInUser(app);
  viewer = await createSignedInUser(app, { role: 'viewer', organisationId: analyst.organisationId });
  stranger = await createSignedInUser(app);
  const org = analyst.organisationId;
  fleetItem = await insertItem(app.db, org, { label: 'Флот такси' });
  const other = await insertItem(app.db, org, { label: 'Личный' });
  const run = await insertRun(app.db, org);
  const event = (itemId: string, type: string, source: string, organisationId = org, runId = run) =>
    insertEvent(app.db, { organisationId, itemId, runId, type, source, detectedAt: '2026-03-01T10:00:00Z' });
  ids.fleetWanted1 = await event(fleetItem, 'wanted_added', 'wanted');
  ids.fleetWanted2 = await event(fleetItem, 'wanted_removed', 'wanted');
  ids.fleetRestriction = await event(fleetItem, 'restriction_added', 'restrictions');
  ids.otherWanted = await event(other, 'wanted_added', 'wanted');
  const strangerItem = await insertItem(app.db, stranger.organisationId, { label: 'Флот такси' });
  const strangerRun = await insertRun(app.db, stranger.organisationId);
  ids.strangerWanted = await event(
    strangerItem,
    'wanted_added',
    'wanted',
    stranger.organisationId,
    strangerRun,
  );
});

describe('POST /api/v1/monitoring/events/read-by-filter', () => {
  it("marks read exactly the events the list's filter matches, in the caller's organisation only", async () => {
    const response = await markByFilter(analyst, { filter: { source: ['wanted'], search: 'флот' } });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ updated: 2 });
    expect(await readNames()).toEqual(['fleetWanted1', 'fleetWanted2']);
    // The list agrees: nothing unread is left under that filter, the rest still is.
    const unread = await app.inject({
      method: 'GET',
      url: '/api/v1/monitoring/events/items?source=wanted&search=флот&read=false',
      headers: bearer(analyst.token),
    });
    expect(unread.json().total).toBe(0);
    expect(unread.json().unread).toBe(2);
    // Already read events are not touched again.
    expect((await markByFilter(analyst, { filter: { source: ['wanted'], search: 'флот' } })).json()).toEqual({
      updated: 0,
    });
  });

  it('marks unread by an item, and everything with an empty filter', async () => {
    const back = await markByFilter(analyst, { filter: { itemId: fleetItem }, read: false });
    expect(back.json()).toEqual({ updated: 2 });
    expect(await readNames()).toEqual([]);
    const all = await markByFilter(analyst, {});
    expect(all.json()).toEqual({ updated: 4 });
    expect(await readNames()).toEqual(['fleetRestriction', 'fleetWanted1', 'fleetWanted2', 'otherWanted']);
    await markByFilter(analyst, { read: false });
  });

  it('is refused to a viewer, and a filter it cannot read is refused in Russian', async () => {
    expect((await markByFilter(viewer, {})).statusCode).toBe(403);
    const bad = await markByFilter(analyst, { filter: { type: ['nonsense'] } });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('Неизвестный тип события');
    expect(await readNames()).toEqual([]);
  });
});

describe('the events report with the list filter', () => {
  it('downloads only the events the list shows (search, item)', async () => {
    const report = (query: string) =>
      app.inject({
        method: 'GET',
        url: `/api/v1/monitoring/report?kind=events&format=csv&from=2026-03-01&to=2026-03-01&${query}`,
        headers: bearer(analyst.token),
      });
    const bySearch = await report('search=%D1%84%D0%BB%D0%BE%D1%82&source=wanted');
    expect(bySearch.statusCode, bySearch.body).toBe(200);
    expect(bySearch.headers[REPORT_HEADERS.rows]).toBe('2');
    const byItem = await report(`itemId=${fleetItem}`);
    expect(byItem.headers[REPORT_HEADERS.rows]).toBe('3');
    const wrongItem = await report('itemId=x');
    expect(wrongItem.statusCode).toBe(422);
    expect(wrongItem.body).toContain('Неверный идентификатор объекта');
  });
});
