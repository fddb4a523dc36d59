import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RemoteSourceConfig } from '../../../config/env.ts';
import { createPool } from '../../../db/pool.ts';
import { bearer, buildTestApp, createSignedInUser } from '../../../testing/test-app.ts';
import { addItems, randomVin, runChecksNow } from '../testing/checks-test-helpers.ts';
import { createRemoteSource } from './remote-source.ts';

type Behaviour =
  | 'ok'
  | 'slow'
  | 'error'
  | 'bad-json'
  | 'bad-shape'
  | 'throttle-once'
  | 'throttle-long'
  | 'throttle-first';

/** A stand-in for a remote source on 127.0.0.1 that answers as the test tells it to. */
let behaviour: Behaviour = 'ok';
const hits: { identifier: string; at: number; auth: string | undefined }[] = [];
let throttled = new Set<string>();
/** When the server refused its first request with Retry-After: 2 ('throttle-first'). */
let throttledAt: number | null = null;
const server = http.createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  const identifier = url.searchParams.get('identifier') ?? '';
  hits.push({ identifier, at: Date.now(), auth: request.headers.authorization });
  const json = (status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  switch (behaviour) {
    case 'slow':
      setTimeout(() => json(200, { findings: [] }), 400);
      return;
    case 'error':
      json(500, { error: 'boom' });
      return;
    case 'bad-json':
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"findings": [');
      return;
    case 'bad-shape':
      json(200, { results: 'nothing' });
      return;
    case 'throttle-long':
      response.writeHead(429, { 'retry-after': '60' });
      response.end();
      return;
    case 'throttle-first':
      if (throttledAt === null) {
        throttledAt = Date.now();
        response.writeHead(429, { 'retry-after': '2' });
        response.end();
        return;
      }
      break;
    case 'throttle-once':
      if (!throttled.has(identifier)) {
        throttled.add(identifier);
        response.writeHead(429, { 'retry-after': '1' });
        response.end();
        return;
      }
      break;
  }
  json(200, {
    findings: identifier.startsWith('XTW')
      ? [{ key: `WANTED-${identifier}`, payload: { record_id: `WANTED-${identifier}`, since: '2025-05-05' } }]
      : [],
  });
});
server.listen(0, '127.0.0.1');
await once(server, 'listening');
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const remote: RemoteSourceConfig = {
  provider: 'json-service',
  url: baseUrl,
  token: 'secret-token',
  timeoutMs: 150,
  retries: 2,
  rateLimit: 1000,
  cacheTtl: 3600,
  price: 0,
};
const { app, config, connectionString } = await buildTestApp({
  config: { remoteSources: { wanted: remote } },
});
const user = await createSignedInUser(app, { role: 'admin' });
const staff = await createSignedInUser(app, { role: 'admin', isStaff: true });
const invalidateCache = (type: string, token: string) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/monitoring/cache/invalidate',
    payload: { type },
    headers: bearer(token),
  });
const check = (vin: string) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/monitoring/one-time-check',
    payload: { vin },
    headers: bearer(user.token),
  });
const wantedOf = (body: { sources: { type: string }[] }) =>
  body.sources.find((s) => s.type === 'wanted') as unknown as {
    status: string;
    error: string | null;
    findings: unknown[];
    fromCache: boolean;
    adapter: string;
  };

beforeEach(() => {
  behaviour = 'ok';
  hits.length = 0;
  throttled = new Set();
  throttledAt = null;
});

/**
 * A remote source as another app or worker process builds it: its own pool and its own copy of the
 * module (nothing shared in memory with this one); the pool is ended after the test.
 */
const pools: ReturnType<typeof createPool>[] = [];
afterAll(() => Promise.all(pools.map((pool) => pool.end())));
async function sourceInAnotherProcess(sourceConfig: RemoteSourceConfig) {
  vi.resetModules();
  const { createRemoteSource: create } = await import('./remote-source.ts');
  const pool = createPool(connectionString, 2);
  pools.push(pool);
  return create('wanted', sourceConfig, { db: pool });
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('remote HTTP source', () => {
  it('answers through the adapter with the token, caches, and forgets on invalidate', async () => {
    const vin = randomVin('XTW');
    const first = (await check(vin)).json();
    expect(wantedOf(first)).toMatchObject({ adapter: 'remote', status: 'ok', fromCache: false });
    expect(wantedOf(first).findings).toHaveLength(1);
    expect(hits).toEqual([expect.objectContaining({ identifier: vin, auth: 'Bearer secret-token' })]);

    const second = (await check(vin)).json();
    expect(wantedOf(second)).toMatchObject({ status: 'ok', fromCache: true });
    expect(hits).toHaveLength(1);

    const invalidate = await invalidateCache('wanted', staff.token);
    expect(invalidate.json()).toEqual({ message: 'Кэш источника «Розыск» очищен', removed: 1 });
    const third = (await check(vin)).json();
    expect(wantedOf(third).fromCache).toBe(false);
    expect(hits).toHaveLength(2);

    const sources = (
      await app.inject({ method: 'GET', url: '/api/v1/monitoring/sources', headers: bearer(user.token) })
    ).json();
    expect(sources.items.find((s: { type: string }) => s.type === 'wanted')).toMatchObject({
      adapter: 'remote',
      cacheTtlSeconds: 3600,
      consecutiveFailures: 0,
    });
  });

  it('keeps the shared cache out of tenants’ reach: only platform staff may flush it', async () => {
    // Another organisation's check fills the shared cache.
    const vin = randomVin('XTW');
    expect(wantedOf((await check(vin)).json())).toMatchObject({ status: 'ok', fromCache: false });
    const tenantAdmin = await createSignedInUser(app, { role: 'admin' });
    for (const type of ['wanted', 'all']) {
      const refused = await invalidateCache(type, tenantAdmin.token);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({
        code: 'CACHE_INVALIDATE_STAFF_ONLY',
        message: 'Кэш источников общий для всех организаций: сбросить его может только сотрудник платформы',
      });
    }
    // The other organisation still gets its cached answer; the remote was asked once.
    expect(wantedOf((await check(vin)).json())).toMatchObject({ status: 'ok', fromCache: true });
    expect(hits).toHaveLength(1);
    const cached = await app.db.query('SELECT 1 FROM source_cache WHERE identifier = $1', [vin]);
    expect(cached.rowCount).toBe(1);
  });

  it('reports a timeout as a failed source after the retries, never as «nothing found»', async () => {
    behaviour = 'slow';
    const body = (await check(randomVin())).json();
    // No dataset is loaded in this database either: every source failed, and the check says so.
    expect(body.status).toBe('failed');
    expect(wantedOf(body)).toMatchObject({ status: 'failed', findings: [] });
    expect(wantedOf(body).error).toBe('поставщик не ответил вовремя (json-service, 0,15 с; попыток: 3)');
    expect(hits).toHaveLength(3);
  });

  it('retries a 500 and then fails; does not cache failures', async () => {
    behaviour = 'error';
    const vin = randomVin();
    expect(wantedOf((await check(vin)).json()).error).toBe(
      'поставщик недоступен (json-service, HTTP 500; попыток: 3)',
    );
    expect(hits).toHaveLength(3);
    behaviour = 'ok';
    expect(wantedOf((await check(vin)).json())).toMatchObject({ status: 'ok', fromCache: false });

    const sources = (
      await app.inject({ method: 'GET', url: '/api/v1/monitoring/sources', headers: bearer(user.token) })
    ).json();
    const wanted = sources.items.find((s: { type: string }) => s.type === 'wanted');
    expect(wanted.consecutiveFailures).toBe(0);
    expect(wanted.lastError).toContain('500');
  });

  it('fails at once on malformed JSON or an unexpected shape', async () => {
    behaviour = 'bad-json';
    expect(wantedOf((await check(randomVin())).json()).error).toBe(
      'ответ поставщика не удалось прочитать (json-service, не JSON)',
    );
    expect(hits).toHaveLength(1);
    behaviour = 'bad-shape';
    expect(wantedOf((await check(randomVin())).json()).error).toBe(
      'ответ поставщика не удалось прочитать (json-service, поле findings: неожиданный формат)',
    );
    const sources = (
      await app.inject({ method: 'GET', url: '/api/v1/monitoring/sources', headers: bearer(user.token) })
    ).json();
    expect(sources.items.find((s: { type: string }) => s.type === 'wanted').consecutiveFailures).toBe(2);
  });

  it('keeps to its rate limit and honours 429 Retry-After', async () => {
    const source = createRemoteSource('wanted', { ...remote, rateLimit: 5, cacheTtl: 0 }, { db: app.db });
    const items = Array.from({ length: 11 }, () => ({
      kind: 'vin' as const,
      documentType: null,
      identifier: randomVin(),
    }));
    const answers = await source.checkBatch(items);
    expect(answers.every((answer) => answer.status === 'ok')).toBe(true);
    const span = hits.at(-1)!.at - hits[0]!.at;
    // Eleven requests at 5 in any second (a window of 1.03 s, request-budget.ts): five, five more a
    // window later, the last a window after that.
    expect(span).toBeGreaterThanOrEqual(1900);

    hits.length = 0;
    behaviour = 'throttle-once';
    const started = Date.now();
    const [answer] = await source.checkBatch([{ kind: 'vin', documentType: null, identifier: randomVin() }]);
    expect(answer!.status).toBe('ok');
    expect(hits).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('holds every request to the provider back for its Retry-After, and fails at once past 10 s', async () => {
    behaviour = 'throttle-long';
    // Its own account (token): the pause is per provider account.
    const paused = { ...remote, token: 'paused-account', concurrency: 1, cacheTtl: 0 };
    const items = Array.from({ length: 3 }, () => ({
      kind: 'vin' as const,
      documentType: null,
      identifier: randomVin(),
    }));
    const answers = await createRemoteSource('wanted', paused, { db: app.db }).checkBatch(items);
    // One request, refused for 60 s: neither a retry nor the other items ask before then.
    expect(hits).toHaveLength(1);
    expect(answers.map((answer) => answer.status)).toEqual(['failed', 'failed', 'failed']);
    expect(answers[0]).toMatchObject({
      error: 'поставщик ограничил частоту запросов (json-service, HTTP 429, повтор не раньше чем через 60 с)',
    });
    const unsent =
      /^поставщик ограничил частоту запросов \(json-service, Retry-After, повтор не раньше чем через (59|60) с\)$/;
    expect(answers[1]!.status === 'failed' && answers[1]!.error).toMatch(unsent);
    // Another process (its own pool and module) does not ask before then either: it fails unsent.
    const [later] = await (await sourceInAnotherProcess(paused)).checkBatch(items.slice(0, 1));
    expect(later!.status === 'failed' && later!.error).toMatch(unsent);
    expect(hits).toHaveLength(1);
    // Another account of the same provider is not paused.
    const [other] = await (await sourceInAnotherProcess({ ...paused, token: 'other-account' })).checkBatch(
      items.slice(0, 1),
    );
    expect(other!.status === 'failed' && other!.error).toContain('HTTP 429');
    expect(hits).toHaveLength(2);
  });

  it('holds a Retry-After in every process: another one sends nothing to the account until it ends', async () => {
    behaviour = 'throttle-first';
    const account = { ...remote, token: 'shared-account', cacheTtl: 0 };
    const [first, second] = [await sourceInAnotherProcess(account), await sourceInAnotherProcess(account)];
    const [vinA, vinB] = [randomVin(), randomVin()];
    const firstAnswers = first.checkBatch([{ kind: 'vin', documentType: null, identifier: vinA }]);
    while (throttledAt === null) {
      await sleep(10);
    }
    // The first process got its 429 + Retry-After: 2 and noted the pause; now the second one asks.
    await sleep(300);
    const [answer] = await second.checkBatch([{ kind: 'vin', documentType: null, identifier: vinB }]);
    expect(answer!.status).toBe('ok');
    expect((await firstAnswers)[0]!.status).toBe('ok');
    const sentB = hits.filter((hit) => hit.identifier === vinB);
    expect(sentB).toHaveLength(1);
    expect(sentB[0]!.at - throttledAt!).toBeGreaterThanOrEqual(1900);
    // The first process's retry also waited for the pause: three requests in all.
    expect(hits).toHaveLength(3);
    // The token is not stored in clear.
    const { rows } = await app.db.query(`SELECT account FROM source_pauses`);
    expect(JSON.stringify(rows)).not.toContain('shared-account');
  });

  it('marks a run with a failing remote source as completed with errors and keeps its snapshot', async () => {
    const vin = randomVin('XTW');
    await addItems(app, user.organisationId, [{ kind: 'vin', identifier: vin }]);
    const first = await runChecksNow(app, config, user.token);
    expect(first.status).toBe('completed_with_errors');
    // The dataset sources have no data in this database: failed, not clean.
    expect(first.sources.find((s: { type: string }) => s.type === 'pledges')).toMatchObject({
      batchesFailed: 1,
      lastError: 'Набор данных источника не загружен',
    });
    expect(first.sources.find((s: { type: string }) => s.type === 'wanted')).toMatchObject({
      batchesDone: 1,
      events: 1,
    });

    behaviour = 'error';
    // The first run's answer is cached for an hour: drop it so the run asks the failing source.
    await invalidateCache('all', staff.token);
    const second = await runChecksNow(app, config, user.token);
    const wanted = second.sources.find((s: { type: string }) => s.type === 'wanted');
    expect(wanted).toMatchObject({ batchesFailed: 1, events: 0 });
    expect(wanted.lastError).toContain('поставщик недоступен (json-service, HTTP 500');
    // The failure did not turn into «wanted removed».
    const { rows } = await app.db.query(
      `SELECT count(*)::int AS n FROM finding_snapshots WHERE source_type = 'wanted' AND organisation_id = $1`,
      [user.organisationId],
    );
    expect(rows[0].n).toBe(1);
    behaviour = 'ok';
    const third = await runChecksNow(app, config, user.token);
    expect(third.sources.find((s: { type: string }) => s.type === 'wanted')).toMatchObject({
      batchesDone: 1,
      events: 0,
    });
  });
});
