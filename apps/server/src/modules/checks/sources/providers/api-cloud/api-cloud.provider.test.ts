import type { SourceType } from '@pledgewatch/contract';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  failureOf,
  jsonAnswer,
  providerContext,
  type ScriptedAnswer,
  startFixtureServer,
} from '../provider-test-kit.ts';
import { apiCloudProvider } from './api-cloud.provider.ts';

let next: ScriptedAnswer = { body: '{}' };
const server = await startFixtureServer(() => next);
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

const ctxFor = (type: SourceType) =>
  providerContext(type, {
    provider: 'api-cloud',
    url: server.url,
    token: '0123456789abcdef0123456789abcdef',
  });
const vin = { kind: 'vin' as const, documentType: null, identifier: 'TMBLB25L9C6086447' };

describe('api-cloud requests', () => {
  it.each([
    ['pledges', '/api/zalog.php', 'notary', 'api-cloud/fixtures/zalog-notary.json'],
    ['restrictions', '/api/gibdd.php', 'restrict', 'api-cloud/fixtures/gibdd-restrict.json'],
    ['wanted', '/api/gibdd.php', 'wanted', 'api-cloud/fixtures/gibdd-wanted.json'],
    ['accidents', '/api/gibdd.php', 'dtp', 'api-cloud/fixtures/gibdd-dtp.json'],
    ['registration', '/api/gibdd.php', 'gibdd', 'api-cloud/fixtures/gibdd-history.json'],
  ] as const)('asks %s at %s?type=%s with the VIN and the token', async (type, path, kind, name) => {
    next = jsonAnswer(name);
    await apiCloudProvider.fetch(ctxFor(type), vin);
    expect(server.requests).toEqual([
      expect.objectContaining({
        method: 'GET',
        path,
        query: { type: kind, vin: 'TMBLB25L9C6086447', token: '0123456789abcdef0123456789abcdef' },
      }),
    ]);
  });
});

describe('api-cloud answers → findings', () => {
  it('a notary registry record is a pledge keyed by its notice number', async () => {
    next = jsonAnswer('api-cloud/fixtures/zalog-notary.json');
    expect((await apiCloudProvider.fetch(ctxFor('pledges'), vin)).findings).toEqual([
      {
        key: '2015-000-426318-974',
        payload: {
          notice_number: '2015-000-426318-974',
          status: 'active',
          registered_at: '2015-02-07',
          pledgee: 'Открытое акционерное общество «Сбербанк России»',
          pledgor: 'ООО "КМЗ"',
        },
      },
    ]);
  });

  it('«not found» (a message, no rez) is nothing found', async () => {
    next = jsonAnswer('api-cloud/fixtures/zalog-not-found.json');
    expect((await apiCloudProvider.fetch(ctxFor('pledges'), vin)).findings).toEqual([]);
  });

  it('a restriction with its code tables in Russian words, keyed by date and kind', async () => {
    next = jsonAnswer('api-cloud/fixtures/gibdd-restrict.json');
    expect((await apiCloudProvider.fetch(ctxFor('restrictions'), vin)).findings).toEqual([
      {
        key: '2015-07-13 · запрет на регистрационные действия',
        payload: {
          record_id: '2015-07-13 · запрет на регистрационные действия',
          kind: 'Запрет на регистрационные действия',
          imposed_at: '2015-07-13',
          imposed_by: 'судебный пристав',
          basis: 'Документ: 90129308-0060 от 13.07.2015, ип: 90129308-0060-ип от 13.07.2015',
          region: 'Брянская область',
        },
      },
    ]);
  });

  it('turns codes into words when the …info texts are absent', async () => {
    next = {
      body: JSON.stringify({
        status: 200,
        count: 1,
        records: [{ dateogr: '13.07.2015', divtype: 1, ogrkod: 2 }],
      }),
    };
    const [finding] = (await apiCloudProvider.fetch(ctxFor('restrictions'), vin)).findings;
    expect(finding!.payload).toMatchObject({ kind: 'Запрет на снятие с учёта', imposed_by: 'суд' });
  });

  it('wanted, accidents and ownership periods in their layouts', async () => {
    next = jsonAnswer('api-cloud/fixtures/gibdd-wanted.json');
    expect((await apiCloudProvider.fetch(ctxFor('wanted'), vin)).findings).toEqual([
      {
        key: 'розыск · 2014-02-06',
        payload: {
          record_id: 'розыск · 2014-02-06',
          since: '2014-02-06',
          region: 'Калужская область',
          note: 'Розыск ТС',
        },
      },
    ]);
    next = jsonAnswer('api-cloud/fixtures/gibdd-dtp.json');
    expect((await apiCloudProvider.fetch(ctxFor('accidents'), vin)).findings).toEqual([
      {
        key: '000043057',
        payload: {
          record_id: '000043057',
          date: '2019-02-14',
          region: 'Новгородская область',
          kind: 'Наезд на стоящее ТС',
          damage: 'Повреждено',
          note: 'Новгородская область',
        },
      },
    ]);
    next = jsonAnswer('api-cloud/fixtures/gibdd-history.json');
    expect(
      (await apiCloudProvider.fetch(ctxFor('registration'), vin)).findings.map((f) => f.payload),
    ).toEqual([
      {
        record_id: 'владение с · 2012-03-15',
        operation: 'Первичная регистрация',
        date: '2012-03-15',
        owner_type: 'Физическое лицо',
        note: 'владение по 20.05.2016',
      },
      {
        record_id: 'владение с · 2016-05-20',
        operation: 'Изменение собственника по сделкам',
        date: '2016-05-20',
        owner_type: 'Юридическое лицо',
      },
    ]);
    next = jsonAnswer('api-cloud/fixtures/gibdd-history-not-found.json');
    expect((await apiCloudProvider.fetch(ctxFor('registration'), vin)).findings).toEqual([]);
  });

  it('parses extra unknown fields; a missing required one is unreadable, not a crash', async () => {
    next = {
      body: JSON.stringify({
        status: 200,
        count: 1,
        extra: 1,
        records: [{ w_data_pu: '06.02.2014', w_new: 'x' }],
      }),
    };
    expect((await apiCloudProvider.fetch(ctxFor('wanted'), vin)).findings).toHaveLength(1);
    next = { body: JSON.stringify({ status: 200, count: 1, records: [{ w_reg_inic: 'Калужская' }] }) };
    const failure = await failureOf(apiCloudProvider.fetch(ctxFor('wanted'), vin));
    expect(failure?.kind).toBe('unreadable');
    expect(failure?.message).toContain('w_data_pu');
    next = { body: JSON.stringify({ status: 200, count: 1, records: 'none' }) };
    expect((await failureOf(apiCloudProvider.fetch(ctxFor('dtp' as SourceType), vin)))?.kind).toBe('refused');
    expect((await failureOf(apiCloudProvider.fetch(ctxFor('accidents'), vin)))?.kind).toBe('unreadable');
  });
});

describe('api-cloud error envelope (detected by `error`, never by the HTTP status)', () => {
  it.each([
    ['error-498.json', 200, 'quota', false],
    ['error-499.json', 200, 'credentials', false],
    ['error-456.json', 200, 'rate_limited', true],
    ['error-404.json', 200, 'unavailable', true],
    ['error-766.json', 200, 'refused', false],
    ['error-123.json', 200, 'blocked', false],
    ['error-404.json', 404, 'unavailable', true],
  ] as const)('%s (HTTP %i) → %s', async (name, status, kind, retryable) => {
    next = jsonAnswer(`api-cloud/fixtures/${name}`, status);
    const failure = await failureOf(apiCloudProvider.fetch(ctxFor('restrictions'), vin));
    expect(failure?.kind).toBe(kind);
    expect(failure?.retryable).toBe(retryable);
  });

  it('names the code in the reason', async () => {
    next = jsonAnswer('api-cloud/fixtures/error-498.json');
    expect((await failureOf(apiCloudProvider.fetch(ctxFor('pledges'), vin)))?.message).toBe(
      'исчерпан лимит запросов или баланс у поставщика (498 TOKEN_NO_MONEY)',
    );
  });
});
