import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { itemLastCheckedSql } from '../../../db/item-last-check.ts';
import { bearer, buildTestApp, createSignedInUser } from '../../../testing/test-app.ts';
import { checkSourceAlerts } from '../sources/source-alerts.ts';
import {
  addItems,
  randomPassport,
  randomVin,
  runChecksNow,
  watchSourceFailures,
} from '../testing/checks-test-helpers.ts';

/** A remote source on loopback speaking the /check protocol; `down` makes it answer 503. */
const asked: string[] = [];
let down = false;
const server = http.createServer((request, response) => {
  const identifier = new URL(request.url ?? '/', 'http://127.0.0.1').searchParams.get('identifier') ?? '';
  asked.push(identifier);
  response.writeHead(down ? 503 : 200, { 'content-type': 'application/json' });
  response.end(JSON.stringify(down ? { error: 'down' } : { findings: [] }));
});
server.listen(0, '127.0.0.1');
await once(server, 'listening');
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const { app, config } = await buildTestApp({
  config: {
    remoteSources: {
      wanted: {
        provider: 'json-service',
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        timeoutMs: 1000,
        retries: 0,
        rateLimit: 1000,
        cacheTtl: 3600,
        dailyLimit: 4,
        price: 1.5,
      },
    },
  },
});

/**
 * A Moscow day passes for the budget and the cache: the day's counts belong to yesterday and every
 * answer is a day older (what moving the clock forward a day would do).
 */
async function dayPasses() {
  await app.db.query(`UPDATE source_request_days SET day = day - 1`);
  await app.db.query(
    `UPDATE source_cache SET fetched_at = fetched_at - interval '1 day', expires_at = expires_at - interval '1 day'`,
  );
}

async function lastChecks(itemIds: string[]): Promise<(Date | null)[]> {
  const { rows } = await app.db.query<{ checked_at: Date | null }>(
    `SELECT ${itemLastCheckedSql('x.id')} AS checked_at FROM unnest($1::uuid[]) WITH ORDINALITY AS x(id, n) ORDER BY n`,
    [itemIds],
  );
  return rows.map((row) => row.checked_at);
}

/** One mark per item: c checked, - never checked. */
const marks = (checks: (Date | null)[]) => checks.map((at) => (at ? 'c' : '-')).join('');

describe('a regular run within a daily request limit', () => {
  it('asks in priority order up to the limit, leaves the rest due, and continues the next day', async () => {
    const user = await createSignedInUser(app, { role: 'admin' });
    const vins = Array.from(
      { length: 10 },
      (_, n) => `XTW${String(n).padStart(2, '0')}${randomVin().slice(5)}`,
    );
    vins.sort();
    const ids = await addItems(
      app,
      user.organisationId,
      vins.map((identifier) => ({ kind: 'vin' as const, identifier })),
    );
    // Three were answered before (expired now): the last of them longest ago.
    await app.db.query(
      `INSERT INTO source_cache (source_type, identifier, findings, fetched_at, expires_at)
       SELECT 'wanted', v, '[]', now() - (n || ' hours')::interval, now() - interval '1 minute'
         FROM unnest($1::text[]) WITH ORDINALITY AS x(v, n)`,
      [[vins[0], vins[1], vins[2]]],
    );

    asked.length = 0;
    await runChecksNow(app, config, user.token);
    // Never answered first, in identifier order: four requests, the limit.
    expect(asked.toSorted()).toEqual(vins.slice(3, 7));
    const checks = await lastChecks(ids);
    // Only the asked items are stamped checked; the others are as they were (never checked).
    expect(marks(checks)).toBe('---cccc---');
    const { rows: first_check } = await app.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM monitoring_item_checks WHERE item_id = ANY($1) AND unranged_since IS NOT NULL AND last_checked_at IS NULL`,
      [ids],
    );
    expect(first_check[0]!.n).toBe(6);

    // The same day: nothing left to ask; the answered four come from the cache and cost nothing.
    asked.length = 0;
    await runChecksNow(app, config, user.token);
    expect(asked).toEqual([]);
    expect(marks(await lastChecks(ids))).toBe('---cccc---');

    // The next day: the remaining never-answered three, then the oldest answer (vins[2]).
    await dayPasses();
    asked.length = 0;
    await runChecksNow(app, config, user.token);
    expect(asked.toSorted()).toEqual([vins[2], ...vins.slice(7)].toSorted());
    expect(marks(await lastChecks(ids))).toBe('--cccccccc');

    const { rows } = await app.db.query<{ requests: number; spend: string }>(
      `SELECT sum(requests)::int AS requests, sum(spend)::text AS spend FROM source_request_days WHERE source_type = 'wanted'`,
    );
    expect(rows[0]).toEqual({ requests: 8, spend: '12.00' });
  });
});

describe('a batch with nothing to ask a source', () => {
  it('is not an answer: the failure episode goes on, one alert, no «снова отвечает»', async () => {
    await app.db.query('DELETE FROM source_request_days');
    const admin = await createSignedInUser(app, { role: 'admin' });
    const deliveries = await watchSourceFailures(app, admin.token, 'wanted');
    const tick = () => checkSourceAlerts({ db: app.db, queue: app.queue, config });
    const sources = async () =>
      (await app.inject({ method: 'GET', url: '/api/v1/monitoring/sources', headers: bearer(admin.token) }))
        .json()
        .items.find((source: { type: string }) => source.type === 'wanted');

    down = true;
    const vinBank = await createSignedInUser(app, { role: 'admin' });
    await addItems(app, vinBank.organisationId, [{ kind: 'vin', identifier: randomVin('XTW') }]);
    await runChecksNow(app, config, vinBank.token);
    await tick();
    expect(await deliveries()).toEqual(['failure']);
    const before = await sources();
    expect(before.consecutiveFailures).toBeGreaterThanOrEqual(1);

    // A bank watching documents only: its batches have nothing for the VIN-only source.
    const documentBank = await createSignedInUser(app, { role: 'admin' });
    await addItems(app, documentBank.organisationId, [
      { kind: 'document', documentType: 'passport_rf', identifier: randomPassport() },
    ]);
    await runChecksNow(app, config, documentBank.token);
    await tick();
    expect(await deliveries()).toEqual(['failure']);
    const after = await sources();
    expect(after.consecutiveFailures).toBe(before.consecutiveFailures);
    expect(after.lastRefreshAt).toBe(before.lastRefreshAt);

    // Still down: no second failure alert either. A real answer ends the episode: two messages in all.
    await runChecksNow(app, config, vinBank.token);
    await tick();
    down = false;
    await app.db.query(`DELETE FROM source_cache WHERE source_type = 'wanted'`);
    await runChecksNow(app, config, vinBank.token);
    await tick();
    expect(await deliveries()).toEqual(['failure', 'recovered']);
  });
});

describe('pay once per TTL, and the sources screen', () => {
  const requestsToday = async () =>
    (
      await app.db.query<{ n: number }>(
        `SELECT coalesce(sum(requests), 0)::int AS n FROM source_request_days WHERE source_type = 'wanted'`,
      )
    ).rows[0]!.n;
  const wantedOf = async (token: string) => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/v1/monitoring/sources',
      headers: bearer(token),
    });
    expect(response.statusCode).toBe(200);
    return response.json().items.find((source: { type: string }) => source.type === 'wanted');
  };

  it('two banks watching one VIN pay one request; a one-time check within the TTL costs nothing, «из кэша»', async () => {
    await app.db.query('DELETE FROM source_request_days');
    down = false;
    const vin = randomVin('XTW');
    const first = await createSignedInUser(app, { role: 'admin' });
    const second = await createSignedInUser(app, { role: 'admin' });
    await addItems(app, first.organisationId, [{ kind: 'vin', identifier: vin }]);
    await addItems(app, second.organisationId, [{ kind: 'vin', identifier: vin }]);
    asked.length = 0;
    await runChecksNow(app, config, first.token);
    await runChecksNow(app, config, second.token);
    expect(asked).toEqual([vin]);
    expect(await requestsToday()).toBe(1);

    const oneTime = await app.inject({
      method: 'POST',
      url: '/api/v1/monitoring/one-time-check',
      headers: bearer(second.token),
      payload: { vin },
    });
    expect(oneTime.statusCode).toBe(200);
    expect(oneTime.json().sources.find((source: { type: string }) => source.type === 'wanted')).toMatchObject(
      { status: 'ok', fromCache: true },
    );
    expect(asked).toEqual([vin]);
    expect(await requestsToday()).toBe(1);
  });

  it('shows provider, requests today and the limit, coverage and waiting items; money to admins only', async () => {
    await app.db.query('DELETE FROM source_request_days');
    down = false;
    const admin = await createSignedInUser(app, { role: 'admin' });
    const analyst = await createSignedInUser(app, { role: 'analyst', organisationId: admin.organisationId });
    const vins = Array.from({ length: 5 }, () => randomVin('XTW'));
    await addItems(
      app,
      admin.organisationId,
      vins.map((identifier) => ({ kind: 'vin' as const, identifier })),
    );
    await runChecksNow(app, config, admin.token);

    const forAdmin = await wantedOf(admin.token);
    expect(forAdmin).toMatchObject({
      provider: 'json-service',
      requestsToday: 4,
      dailyLimit: 4,
      rateLimit: 1000,
      coverage: 0.8,
      itemsWaiting: 1,
      pricePerRequest: 1.5,
      spendToday: 6,
      spendMonth: 6,
    });
    const forAnalyst = await wantedOf(analyst.token);
    expect(forAnalyst).toMatchObject({ requestsToday: 4, dailyLimit: 4, coverage: 0.8, itemsWaiting: 1 });
    // Absent, not zero: the server never sends money to an analyst.
    expect(forAnalyst).not.toHaveProperty('spendToday');
    expect(forAnalyst).not.toHaveProperty('spendMonth');
    expect(forAnalyst).not.toHaveProperty('pricePerRequest');
    // A dataset source has no budget.
    const response = await app.inject({
      method: 'GET',
      url: '/api/v1/monitoring/sources',
      headers: bearer(admin.token),
    });
    expect(response.json().items.find((source: { type: string }) => source.type === 'pledges')).toMatchObject(
      { provider: null, requestsToday: null, coverage: null, spendToday: null },
    );
  });
});
