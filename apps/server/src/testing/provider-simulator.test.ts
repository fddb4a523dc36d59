import { SOURCE_TYPE_CODES } from '@pledgewatch/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/env.ts';
import { simulatorEnv } from '../config/source-providers.ts';
import { getCheckDocument } from '../modules/checks/one-time-checks/check-document.ts';
import {
  getOneTimeCheck,
  runOneTimeCheck,
} from '../modules/checks/one-time-checks/one-time-checks.service.ts';
import { createSourceAdapters } from '../modules/checks/sources/source-registry.ts';
import { addItems, randomPassport, runChecksNow } from '../modules/checks/testing/checks-test-helpers.ts';
import { startProviderSimulator } from './provider-simulator.ts';
import { buildTestApp, createSignedInUser } from './test-app.ts';

const simulator = await startProviderSimulator({ foundEvery: 0, found: ['7707083893'] });
afterAll(() => simulator.close());
const { app, config: testConfig } = await buildTestApp();
const config = loadConfig({
  ...simulatorEnv(simulator.url),
  SOURCE_TIMEOUT_MS: '1500',
  SOURCE_RETRIES: '0',
  SOURCE_RATE_LIMIT: '1000',
});
const sources = () =>
  createSourceAdapters({ db: app.db, config }).filter((source) => source.adapter === 'remote');

describe('the provider simulator, with the app configured by simulatorEnv', () => {
  it('serves six source types through four providers', () => {
    expect(sources().map((source) => [source.type, config.remoteSources[source.type]?.provider])).toEqual(
      SOURCE_TYPE_CODES.filter((type) => config.remoteSources[type]).map((type) => [
        type,
        config.remoteSources[type]!.provider,
      ]),
    );
    expect(new Set(Object.values(config.remoteSources).map((source) => source.provider))).toEqual(
      new Set(['parser-api', 'api-cloud', 'avtocod', 'fedresurs']),
    );
  });

  it('answers the published examples for their VIN and debtor, nothing for others', async () => {
    const vin = { kind: 'vin' as const, documentType: null, identifier: 'TMBLB25L9C6086447' };
    const answers = Object.fromEntries(
      await Promise.all(
        sources()
          .filter((source) => source.answersFor(vin))
          .map(async (source) => [source.type, await source.check(vin)] as const),
      ),
    );
    expect(answers.pledges).toMatchObject({ status: 'ok', findings: [{ key: '2015-000-426318-974' }] });
    expect(answers.restrictions).toMatchObject({
      status: 'ok',
      findings: [{ payload: { imposed_by: 'судебный пристав' } }],
    });
    for (const type of ['wanted', 'accidents', 'registration']) {
      expect(answers[type]).toMatchObject({ status: 'ok' });
      expect(answers[type]!.findings.length).toBeGreaterThan(0);
    }
    const debtor = { kind: 'document' as const, documentType: 'inn' as const, identifier: '500100732259' };
    const bankruptcy = sources().find((source) => source.type === 'bankruptcy')!;
    expect(await bankruptcy.check(debtor)).toMatchObject({
      status: 'ok',
      findings: [{ key: 'А41-12345/2024' }],
    });
    const other = { kind: 'vin' as const, documentType: null, identifier: 'XTA21124070445555' };
    expect(await sources()[0]!.check(other)).toMatchObject({ status: 'ok', findings: [] });
  });

  it.each([
    ['ZZZ00000000000401', 'неверные учётные данные поставщика'],
    ['ZZZ00000000000402', 'исчерпан лимит запросов или баланс'],
    ['ZZZ00000000000403', 'поставщик потребовал капчу'],
    ['ZZZ00000000000503', 'поставщик недоступен'],
    ['ZZZ00000000000200', 'страница HTML вместо JSON'],
    ['ZZZ00000000000413', 'ответ больше 5 МБ'],
    ['ZZZ00000000000302', 'перенаправление 302'],
  ])('fails every VIN source on %s with «%s»', async (identifier, reason) => {
    const vin = { kind: 'vin' as const, documentType: null, identifier };
    for (const source of sources().filter((each) => each.answersFor(vin))) {
      const answer = await source.check(vin);
      expect(answer.status, source.type).toBe('failed');
      expect(answer.status === 'failed' && answer.error, source.type).toContain(reason);
    }
  });
});

describe('a one-time check against the simulator', () => {
  it('names the provider that answered each source, on the check, its document and in its history', async () => {
    const user = await createSignedInUser(app, { role: 'analyst' });
    const auth = {
      sessionId: '',
      userId: user.id,
      organisationId: user.organisationId,
      role: 'analyst' as const,
      isStaff: false,
    };
    const check = await runOneTimeCheck({ db: app.db, config, auth, body: { vin: 'TMBLB25L9C6086447' } });
    const by = (sources: { type: string; provider?: string | null }[]) =>
      Object.fromEntries(sources.map((source) => [source.type, source.provider]));
    expect(by(check.sources)).toMatchObject({
      pledges: 'parser-api',
      restrictions: 'api-cloud',
      wanted: 'avtocod',
      accidents: 'avtocod',
      registration: 'avtocod',
    });
    // Read back later (the history): as it was stored, whatever is configured now.
    expect(by((await getOneTimeCheck({ db: app.db, auth, id: check.id })).sources)).toEqual(
      by(check.sources),
    );
    const document = await getCheckDocument({ db: app.db, auth, id: check.id });
    expect(
      Object.fromEntries(document.sources.map((source) => [source.type, source.answeredBy])),
    ).toMatchObject({
      pledges: 'Parser API',
      restrictions: 'API-Cloud',
      wanted: 'Автокод',
    });

    // A check stored before the provider was recorded reads as its kind of source.
    await app.db.query(
      `UPDATE one_time_checks SET sources = (SELECT jsonb_agg(s - 'provider') FROM jsonb_array_elements(sources) s) WHERE id = $1`,
      [check.id],
    );
    const old = await getOneTimeCheck({ db: app.db, auth, id: check.id });
    expect(old.sources.every((source) => source.provider === null)).toBe(true);
    const oldDocument = await getCheckDocument({ db: app.db, auth, id: check.id });
    expect(oldDocument.sources.find((source) => source.type === 'wanted')?.answeredBy).toBe('Внешний сервис');
  });
});

describe('a regular run against the simulator', () => {
  it('asks Fedresurs about the INN, never the passport, and records its case as an event', async () => {
    const user = await createSignedInUser(app, { role: 'admin' });
    await addItems(app, user.organisationId, [
      { kind: 'document', documentType: 'passport_rf', identifier: randomPassport() },
      { kind: 'document', documentType: 'inn', identifier: '7707083893' },
    ]);
    const before = simulator.requests.length;
    const run = await runChecksNow(
      app,
      { ...testConfig, remoteSources: { bankruptcy: config.remoteSources.bankruptcy! } },
      user.token,
    );
    const asked = simulator.requests.slice(before).map((request) => request.path);
    expect(asked.filter((path) => path === '/fedresurs/v1/bankrupts')).toHaveLength(1);
    expect(run.failedSources.map((source: { type: string }) => source.type)).not.toContain('bankruptcy');
    const events = await app.db.query<{ finding_key: string }>(
      `SELECT e.finding_key FROM monitoring_events e WHERE e.organisation_id = $1 AND e.source_type = 'bankruptcy'`,
      [user.organisationId],
    );
    expect(events.rows.map((row) => row.finding_key)).toEqual(['А41-12345/2024']);
  });
});
