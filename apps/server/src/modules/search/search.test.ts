import type { SearchGroup, SearchKind, SearchResponse } from '@pledgewatch/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, createSignedInUser, type TestUser } from '../../testing/test-app.ts';
import { creationBody, makeVin, requester } from '../pledges/testing/pledge-test-helpers.ts';
import {
  insertEvent,
  insertItem,
  insertOneTimeCheck,
  insertRun,
} from '../statistics/testing/statistics-fixtures.ts';

const { app } = await buildTestApp();
const { send } = requester(app);

const searchAs = (user: TestUser, q: string, limit?: number) =>
  app.inject({
    method: 'GET',
    url: `/api/v1/search?${new URLSearchParams({ q, ...(limit ? { limit: String(limit) } : {}) })}`,
    headers: bearer(user.token),
  });

async function found(user: TestUser, q: string, limit?: number): Promise<Record<SearchKind, SearchGroup>> {
  const response = await searchAs(user, q, limit);
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json<SearchResponse>();
  return Object.fromEntries(body.groups.map((group) => [group.kind, group])) as Record<
    SearchKind,
    SearchGroup
  >;
}

let analyst: TestUser;
let viewer: TestUser;
let stranger: TestUser;
let vin: string;
let itemId: string;
let contract: string;
let registryEventId: string;
let packageId: string;
let checkId: string;
let checkNumber: string;

beforeAll(async () => {
  analyst = await createSignedInUser(app);
  viewer = await createSignedInUser(app, { role: 'viewer', organisationId: analyst.organisationId });
  stranger = await createSignedInUser(app);
  const org = analyst.organisationId;
  // The pledge notification: its VIN goes on monitoring too (an item found by the same VIN).
  vin = makeVin('Z94');
  const created = await send('POST', '/api/v1/pledges/events', analyst, creationBody([vin]));
  expect(created.statusCode, created.body).toBe(201);
  registryEventId = created.json().event.id;
  contract = created.json().event.contract.number;
  const pack = await send('POST', '/api/v1/pledges/packages', analyst, {
    name: 'Пакет поиска',
    eventIds: [registryEventId],
  });
  expect(pack.statusCode, pack.body).toBe(201);
  packageId = pack.json().id;
  const { rows } = await app.db.query<{ id: string }>(
    'SELECT id FROM monitoring_items WHERE organisation_id = $1 AND identifier = $2',
    [org, vin],
  );
  itemId = rows[0]!.id;
  const run = await insertRun(app.db, org);
  for (const type of ['wanted_added', 'restriction_added']) {
    await insertEvent(app.db, {
      organisationId: org,
      itemId,
      runId: run,
      type,
      source: type === 'wanted_added' ? 'wanted' : 'restrictions',
      detectedAt: '2026-03-01T10:00:00Z',
    });
  }
  await insertItem(app.db, org, { identifier: '4510654321', kind: 'document', label: 'Паспорт заёмщика' });
  checkId = await insertOneTimeCheck(app.db, org, { identifier: vin });
  checkNumber = (await app.db.query('SELECT number FROM one_time_checks WHERE id = $1', [checkId])).rows[0]
    .number;
  // Another organisation holds the same VIN and contract: never found by this one.
  await insertItem(app.db, stranger.organisationId, { identifier: vin, contractNumber: contract });
});

describe('GET /api/v1/search', () => {
  it('finds a VIN part in items, events, the registry, packages and one-time checks, grouped with counts', async () => {
    const groups = await found(analyst, vin.slice(5, 13).toLowerCase());
    expect(Object.keys(groups)).toEqual(['items', 'events', 'pledgeEvents', 'packages', 'oneTimeChecks']);
    expect(groups.items).toMatchObject({ total: 1, more: false, label: 'Объекты мониторинга' });
    expect(groups.items.hits[0]).toMatchObject({ id: itemId, title: vin, itemKind: 'vin' });
    expect(groups.events.total).toBe(2);
    expect(groups.events.hits.map((hit) => hit.itemId)).toEqual([itemId, itemId]);
    expect(groups.pledgeEvents.hits.map((hit) => hit.id)).toEqual([registryEventId]);
    expect(groups.packages.hits.map((hit) => hit.id)).toEqual([packageId]);
    expect(groups.oneTimeChecks.hits).toMatchObject([{ id: checkId, title: checkNumber }]);
  });

  it('finds a contract number in the registry and its package, a package by name, a check by number', async () => {
    const byContract = await found(analyst, contract);
    expect(byContract.pledgeEvents.total).toBe(1);
    expect(byContract.packages.hits.map((hit) => hit.id)).toEqual([packageId]);
    const byName = await found(analyst, 'пакет поиска');
    expect(byName.packages.hits.map((hit) => hit.title)).toEqual(['Пакет поиска']);
    const byCheck = await found(analyst, checkNumber.slice(-6));
    expect(byCheck.oneTimeChecks.hits.map((hit) => hit.id)).toEqual([checkId]);
  });

  it('finds a document number typed with spaces, and a label', async () => {
    const groups = await found(analyst, '45 10 654321');
    expect(groups.items.hits).toMatchObject([{ title: '45 10 654321', itemKind: 'document' }]);
    expect((await found(analyst, 'заёмщика')).items.total).toBe(1);
  });

  it('counts beyond the hits it returns', async () => {
    const org = analyst.organisationId;
    for (let i = 0; i < 7; i++) {
      await insertItem(app.db, org, { label: `Флот Каршеринг ${i}` });
    }
    const groups = await found(analyst, 'каршеринг', 3);
    expect(groups.items).toMatchObject({ total: 7, more: false });
    expect(groups.items.hits).toHaveLength(3);
  });

  it("finds nothing of another organisation's", async () => {
    const groups = await found(stranger, contract);
    expect(groups.items.total).toBe(1);
    for (const kind of ['events', 'pledgeEvents', 'packages', 'oneTimeChecks'] as const) {
      expect(groups[kind].total).toBe(0);
    }
    expect((await found(stranger, vin)).items.hits.map((hit) => hit.id)).not.toContain(itemId);
  });

  it('answers a viewer as it answers an analyst (every role reads every list)', async () => {
    expect(await found(viewer, vin)).toEqual(await found(analyst, vin));
  });

  it('refuses a too short or meaningless query in Russian, and a caller without a session', async () => {
    for (const q of ['ab', '  a-b ', '%%%', '— — —']) {
      const response = await searchAs(analyst, q);
      expect(response.statusCode).toBe(422);
      expect(JSON.stringify(response.json())).toContain('Введите хотя бы 3 буквы или цифры');
    }
    const long = await searchAs(analyst, 'x'.repeat(101));
    expect(long.statusCode).toBe(422);
    expect(JSON.stringify(long.json())).toContain('Не длиннее 100 символов');
    const limit = await searchAs(analyst, vin, 50);
    expect(limit.statusCode).toBe(422);
    expect(JSON.stringify(limit.json())).toContain('не больше 20');
    const anonymous = await app.inject({ method: 'GET', url: `/api/v1/search?q=${vin}` });
    expect(anonymous.statusCode).toBe(401);
  });

  it("matches a user's % and _ as themselves", async () => {
    await insertItem(app.db, analyst.organisationId, { label: 'Скидка 100%_x' });
    expect((await found(analyst, '100%_x')).items.total).toBe(1);
    expect((await found(analyst, '10%_x')).items.total).toBe(0);
  });
});
