import { afterAll, describe, expect, it } from 'vitest';
import type { RemoteSourceConfig } from '../../../../config/env.ts';
import { buildTestApp } from '../../../../testing/test-app.ts';
import { createRemoteSource } from '../remote-source.ts';
import { fixture, startFixtureServer } from './provider-test-kit.ts';

/** What the source adds around every provider: the shared cache across types, retries. */
let throttle = 0;
const server = await startFixtureServer((request) => {
  if (request.path.endsWith('/_make')) {
    return { body: fixture('avtocod/fixtures/report-make.json') };
  }
  if (request.path.startsWith('/user/reports/')) {
    return { body: fixture('avtocod/fixtures/report-complete.json') };
  }
  if (throttle > 0) {
    throttle--;
    return { body: fixture('api-cloud/fixtures/error-456.json') };
  }
  return { body: fixture('api-cloud/fixtures/gibdd-wanted.json') };
});
afterAll(() => server.close());
const { app } = await buildTestApp();

const base = { url: server.url, timeoutMs: 2000, retries: 2, rateLimit: 1000, cacheTtl: 3600, price: 0 };

describe('a provider behind the source', () => {
  it('one Avtocod report answers the five types it serves: the others read it from the cache', async () => {
    const avtocod: RemoteSourceConfig = { ...base, provider: 'avtocod', token: 'u@bank:p' };
    const remoteSources = { pledges: avtocod, wanted: avtocod, accidents: avtocod };
    const item = { kind: 'vin' as const, documentType: null, identifier: 'EXAMPL0V1N1000000' };
    const pledges = await createRemoteSource('pledges', avtocod, { db: app.db, remoteSources }).check(item);
    expect(pledges).toMatchObject({ status: 'ok', findings: [{ key: '2013-001-406288-623' }] });
    const wanted = await createRemoteSource('wanted', avtocod, { db: app.db, remoteSources }).check(item);
    expect(wanted).toMatchObject({
      status: 'ok',
      fromCache: true,
      findings: [{ key: 'розыск · 2014-02-06' }],
    });
    const accidents = await createRemoteSource('accidents', avtocod, { db: app.db, remoteSources }).check(
      item,
    );
    expect(accidents).toMatchObject({ status: 'ok', fromCache: true });
    expect(server.requests.filter((request) => request.path.endsWith('/_make'))).toHaveLength(1);
    // A type served by the dataset is not written for: restrictions was not configured with Avtocod.
    const { rows } = await app.db.query(
      `SELECT source_type FROM source_cache WHERE identifier = $1 ORDER BY 1`,
      [item.identifier],
    );
    expect(rows.map((row) => row.source_type)).toEqual(['accidents', 'pledges', 'wanted']);
  });

  it('retries a retryable failure (api-cloud 456 MAX_LIMIT) and then reads the answer', async () => {
    throttle = 2;
    const apiCloud: RemoteSourceConfig = { ...base, provider: 'api-cloud', token: 'k', cacheTtl: 0 };
    const item = { kind: 'vin' as const, documentType: null, identifier: 'XTA21124070445999' };
    expect(await createRemoteSource('wanted', apiCloud, { db: app.db }).check(item)).toMatchObject({
      status: 'ok',
      findings: [{ key: 'розыск · 2014-02-06' }],
    });
    throttle = 3;
    expect(await createRemoteSource('wanted', apiCloud, { db: app.db }).check(item)).toEqual({
      status: 'failed',
      findings: [],
      error: 'поставщик ограничил частоту запросов (api-cloud, 456 MAX_LIMIT; попыток: 3)',
    });
  });
});
