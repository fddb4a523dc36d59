import { SOURCE_TYPE_CODES } from '@pledgewatch/contract';
import { afterAll, describe, expect, it } from 'vitest';
import type { RemoteSourceConfig } from '../../../config/env.ts';
import { itemLastCheckedSql } from '../../../db/item-last-check.ts';
import { registry } from '../../../lib/metrics.ts';
import { bearer, buildTestApp, createSignedInUser } from '../../../testing/test-app.ts';
import { fixture, startFixtureServer } from '../sources/providers/provider-test-kit.ts';
import { createRemoteSource } from '../sources/remote-source.ts';
import { checkSourceAlerts } from '../sources/source-alerts.ts';
import { importDataset } from '../sources/sources.service.ts';
import { addItems, randomVin, runChecksNow, watchSourceFailures } from '../testing/checks-test-helpers.ts';

/**
 * A spent daily limit is ours, not the provider being down: it must not count as a source failure
 * anywhere. Avtocod on loopback: each VIN costs two requests (`_make`, then a poll), so the limit can
 * run out between an item's requests; `_make` answers 503 while `makeDown`.
 */
let makeDown = false;
const server = await startFixtureServer((request) => {
  if (request.path.endsWith('/_make')) {
    return makeDown ? { status: 503, body: '{}' } : { body: fixture('avtocod/fixtures/report-make.json') };
  }
  return { body: fixture('avtocod/fixtures/report-complete.json') };
});
afterAll(() => server.close());

const avtocod: RemoteSourceConfig = {
  provider: 'avtocod',
  url: server.url,
  token: 'user@bank:secret',
  timeoutMs: 2000,
  retries: 1,
  rateLimit: 1000,
  cacheTtl: 3600,
  // One VIN at a time: which items the five requests reach is then fixed.
  concurrency: 1,
  dailyLimit: 5,
  price: 10,
};
const { app, config } = await buildTestApp({ config: { remoteSources: { wanted: avtocod } } });
// Every dataset source has data (none of it about these VINs): a run fails only through `wanted`.
for (const type of SOURCE_TYPE_CODES.filter((code) => code !== 'wanted')) {
  await importDataset({ db: app.db, type, fileName: `${type}.json`, records: [] });
}

/** pledgewatch_source_failures_total and the request-duration count of wanted/avtocod. */
async function sourceMetrics(): Promise<{ failures: number; calls: number }> {
  const value = async (name: string, suffix = '') =>
    (await registry.getSingleMetric(name)!.get()).values
      .filter(
        (v) =>
          v.labels.source === 'wanted' &&
          v.labels.provider === 'avtocod' &&
          ((v as { metricName?: string }).metricName ?? name).endsWith(suffix),
      )
      .reduce((sum, v) => sum + v.value, 0);
  return {
    failures: await value('pledgewatch_source_failures_total'),
    calls: await value('pledgewatch_source_request_duration_seconds', '_count'),
  };
}

describe('a spent daily limit', () => {
  it('is not a provider failure: no failed source in the run, no failure count or alert, freshness kept', async () => {
    const admin = await createSignedInUser(app, { role: 'admin' });
    const deliveries = await watchSourceFailures(app, admin.token, 'wanted');
    const wantedSource = async () =>
      (await app.inject({ method: 'GET', url: '/api/v1/monitoring/sources', headers: bearer(admin.token) }))
        .json()
        .items.find((source: { type: string }) => source.type === 'wanted');

    const vins = Array.from({ length: 10 }, () => randomVin());
    const ids = await addItems(
      app,
      admin.organisationId,
      vins.map((identifier) => ({ kind: 'vin' as const, identifier })),
    );
    const metricsBefore = await sourceMetrics();
    const run = await runChecksNow(app, config, admin.token);
    // Five requests, the limit: two VINs answered (make + poll each), the third's poll not sent.
    expect(server.requests).toHaveLength(5);
    expect(run.status).toBe('completed');
    expect(run.sources.find((s: { type: string }) => s.type === 'wanted')).toMatchObject({
      batchesFailed: 0,
      lastError: null,
    });
    // Only the answered items are checked; the third (paid for its report, never read) stays due.
    const { rows } = await app.db.query<{ checked: boolean }>(
      `SELECT ${itemLastCheckedSql('x.id')} IS NOT NULL AS checked FROM unnest($1::uuid[]) AS x(id)`,
      [ids],
    );
    expect(rows.filter((row) => row.checked)).toHaveLength(2);

    await checkSourceAlerts({ db: app.db, queue: app.queue, config });
    expect(await deliveries()).toEqual([]);
    const source = await wantedSource();
    expect(source).toMatchObject({
      consecutiveFailures: 0,
      lastError: null,
      lastFailureAt: null,
      requestsToday: 5,
      dailyLimit: 5,
      coverage: 0.2,
      itemsWaiting: 8,
    });
    expect(source.lastRefreshAt).not.toBeNull();
    // Two answers; the items not asked are neither failures nor calls.
    expect(await sourceMetrics()).toEqual({
      failures: metricsBefore.failures,
      calls: metricsBefore.calls + 2,
    });

    // A one-time check has no next day: it fails with the limit's reason, but that is no source failure.
    const oneTime = await app.inject({
      method: 'POST',
      url: '/api/v1/monitoring/one-time-check',
      headers: bearer(admin.token),
      payload: { vin: randomVin() },
    });
    expect(oneTime.json().sources.find((s: { type: string }) => s.type === 'wanted')).toMatchObject({
      status: 'failed',
      error: 'дневной лимит запросов к источнику исчерпан (avtocod)',
    });

    // The same day again: nothing can be asked. Still no failure, and freshness stays where it was.
    const again = await runChecksNow(app, config, admin.token);
    expect(again.status).toBe('completed');
    expect(server.requests).toHaveLength(5);
    await checkSourceAlerts({ db: app.db, queue: app.queue, config });
    expect(await deliveries()).toEqual([]);
    expect(await wantedSource()).toMatchObject({
      consecutiveFailures: 0,
      lastError: null,
      lastRefreshAt: source.lastRefreshAt,
      itemsWaiting: 8,
    });
  });

  it('leaves a provider failure a failure when the limit refuses its retry', async () => {
    makeDown = true;
    try {
      const source = createRemoteSource(
        'accidents',
        { ...avtocod, dailyLimit: 1 },
        { db: app.db, remoteSources: {} },
      );
      const [answer] = await source.checkBatch([
        { kind: 'vin', documentType: null, identifier: randomVin() },
      ]);
      // The provider's own failure, not «the day's limit»: the limit only kept the retry from being sent.
      expect(answer).toEqual({
        status: 'failed',
        findings: [],
        error: 'поставщик недоступен (avtocod, HTTP 503)',
      });
    } finally {
      makeDown = false;
    }
  });
});
