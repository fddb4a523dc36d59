import type { SourceType } from '@pledgewatch/contract';
import { afterAll, describe, expect, it } from 'vitest';
import type { RemoteSourceConfig } from '../../../../config/env.ts';
import type { SourceProviderName } from '../../../../config/source-providers.ts';
import { buildTestApp } from '../../../../testing/test-app.ts';
import { createRemoteSource } from '../remote-source.ts';
import type { CheckItem } from '../source-adapter.ts';
import { fixture, type ScriptedAnswer, startFixtureServer } from './provider-test-kit.ts';

/**
 * Hostile answers, from every provider: each ends as a failed answer with its reason, nothing is
 * cached or written, and the same source answers the next good request as usual.
 */
let bad: ScriptedAnswer | null = null;
const server = await startFixtureServer((request) => {
  if (bad) {
    return bad;
  }
  // Good answers, enough for each provider to say «nothing found».
  if (request.path === '/v1/auth') {
    return { body: fixture('fedresurs/fixtures/auth.json') };
  }
  if (request.path.endsWith('/_make')) {
    return { body: fixture('avtocod/fixtures/report-make.json') };
  }
  if (request.path.startsWith('/user/reports/')) {
    return { body: fixture('avtocod/fixtures/report-empty.json') };
  }
  return {
    body: JSON.stringify({
      success: 1,
      records: [],
      status: 200,
      count: 0,
      total: 0,
      pageData: [],
      findings: [],
    }),
  };
});
afterAll(() => server.close());

const { app } = await buildTestApp();

const cases: [SourceProviderName, SourceType, CheckItem, string][] = [
  ['parser-api', 'pledges', { kind: 'vin', documentType: null, identifier: 'XTA21124070445111' }, 'key'],
  ['api-cloud', 'restrictions', { kind: 'vin', documentType: null, identifier: 'XTA21124070445112' }, 'key'],
  ['fedresurs', 'bankruptcy', { kind: 'document', documentType: 'inn', identifier: '7707083893' }, 'a:b'],
  ['avtocod', 'wanted', { kind: 'vin', documentType: null, identifier: 'XTA21124070445113' }, 'u@bank:p'],
  [
    'json-service',
    'passport',
    { kind: 'document', documentType: 'passport_rf', identifier: '4510123456' },
    '',
  ],
];

const html = (text: string): ScriptedAnswer => ({ headers: { 'content-type': 'text/html' }, body: text });
const badAnswers: [string, ScriptedAnswer, string][] = [
  [
    'an HTML page',
    html('<!DOCTYPE html><html><body><h1>Добро пожаловать</h1></body></html>'),
    'страница HTML вместо JSON',
  ],
  ['a 10 MB body', { body: Buffer.alloc(10 * 1024 * 1024, 0x20) }, 'ответ больше 5 МБ'],
  ['JSON of the wrong shape', { body: '[1, "two", {"three": 3}]' }, 'ответ поставщика не удалось прочитать'],
  [
    'a slow drip',
    { body: JSON.stringify({ padding: 'x'.repeat(400) }), dripMs: 40 },
    'поставщик не ответил вовремя',
  ],
  [
    'a redirect',
    { status: 302, headers: { location: 'https://example.org/login' }, body: '' },
    'перенаправление 302',
  ],
  ['a captcha page', html(fixture('fixtures/captcha.html')), 'поставщик потребовал капчу'],
];

describe.each(cases)('%s (%s) under hostile answers', (provider, type, item, token) => {
  const config: RemoteSourceConfig = {
    provider,
    url: server.url,
    token: token || undefined,
    // Long enough for 5 MB over loopback on a loaded machine; the drip takes about 4 s.
    timeoutMs: 2000,
    retries: 0,
    rateLimit: 1000,
    cacheTtl: 3600,
    price: 0,
  };
  const cachedRows = async () =>
    Number(
      (
        await app.db.query<{ n: string }>('SELECT count(*) AS n FROM source_cache WHERE identifier = $1', [
          item.identifier,
        ])
      ).rows[0]!.n,
    );

  it.each(badAnswers)(
    '%s: failed with a reason, nothing cached, the next answer read as usual',
    async (_, answer, reason) => {
      await app.db.query('DELETE FROM source_cache WHERE identifier = $1', [item.identifier]);
      bad = answer;
      const source = createRemoteSource(type, config, { db: app.db });
      const [failed] = await source.checkBatch([item]);
      expect(failed).toMatchObject({ status: 'failed', findings: [] });
      expect(failed!.status === 'failed' && failed!.error).toContain(reason);
      expect(failed!.status === 'failed' && failed!.error).toContain(provider);
      expect(await cachedRows()).toBe(0);
      bad = null;
      expect(await source.check(item)).toMatchObject({ status: 'ok', findings: [] });
      expect(await cachedRows()).toBe(1);
    },
  );
});
