import { createHash } from 'node:crypto';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  failureOf,
  jsonAnswer,
  providerContext,
  type RecordedRequest,
  type ScriptedAnswer,
  startFixtureServer,
} from '../provider-test-kit.ts';
import { avtocodProvider, avtocodToken } from './avtocod.provider.ts';

let make: () => ScriptedAnswer;
let reports: ScriptedAnswer[];
const server = await startFixtureServer((request: RecordedRequest) =>
  request.path.endsWith('/_make') ? make() : reports.length > 1 ? reports.shift()! : reports[0]!,
);
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  make = () => jsonAnswer('avtocod/fixtures/report-make.json');
  reports = [jsonAnswer('avtocod/fixtures/report-complete.json')];
});

const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);
const ctxFor = (type: 'pledges' | 'restrictions' | 'wanted' | 'accidents' | 'registration') =>
  providerContext(type, { provider: 'avtocod', url: server.url, token: 'monitor@bank:s3cret' }, () => NOW);
const vin = { kind: 'vin' as const, documentType: null, identifier: 'EXAMPL0V1N1000000' };

describe('avtocod AR-REST token', () => {
  it('is base64(login:ts:age:base64(md5raw(ts:age:base64(md5raw(password))))), md5raw the binary digest', () => {
    const md5 = (value: string) => createHash('md5').update(value).digest('base64');
    const salted = md5(`1700000000:172800:${md5('s3cret')}`);
    expect(Buffer.from(avtocodToken('monitor@bank', 's3cret', 1700000000, 172800), 'base64').toString()).toBe(
      `monitor@bank:1700000000:172800:${salted}`,
    );
    // The hex digest would be 32 characters; the raw one is 16 bytes, 24 in base64.
    expect(salted).toHaveLength(24);
  });
});

describe('avtocod requests', () => {
  it('makes the report for the VIN, then reads it with content, signed with a token backdated 60 s', async () => {
    await avtocodProvider.fetch(ctxFor('pledges'), vin);
    const [made, read] = server.requests;
    expect(made).toMatchObject({ method: 'POST', path: '/user/reports/default%40bank/_make' });
    expect(JSON.parse(made!.body)).toEqual({ queryType: 'VIN', query: 'EXAMPL0V1N1000000', options: {} });
    expect(read).toMatchObject({
      method: 'GET',
      path: '/user/reports/default_EXAMPL0V1N1000000%40bank',
      query: { _content: 'true', _detailed: 'true' },
    });
    const token = String(made!.headers.authorization);
    expect(token.startsWith('AR-REST ')).toBe(true);
    const [login, ts, age] = Buffer.from(token.slice(8), 'base64').toString().split(':');
    expect([login, Number(ts), Number(age)]).toEqual(['monitor@bank', NOW / 1000 - 60, 172860]);
  });

  it('polls until the report has nothing left to wait for', async () => {
    reports = [
      jsonAnswer('avtocod/fixtures/report-in-progress.json'),
      jsonAnswer('avtocod/fixtures/report-complete.json'),
    ];
    const { findings } = await avtocodProvider.fetch(ctxFor('accidents'), vin);
    expect(findings.map((finding) => finding.key)).toEqual(['000043057']);
    expect(server.requests.filter((request) => request.method === 'GET')).toHaveLength(2);
  });

  it('serves five types from one report: one request made for all of them at once', async () => {
    const types = ['pledges', 'restrictions', 'wanted', 'accidents', 'registration'] as const;
    const results = await Promise.all(types.map((type) => avtocodProvider.fetch(ctxFor(type), vin)));
    expect(server.requests.filter((request) => request.path.endsWith('/_make'))).toHaveLength(1);
    // And each answer carries the others' findings, which the source caches for them.
    expect(Object.keys(results[0]!.related ?? {}).toSorted()).toEqual([
      'accidents',
      'registration',
      'restrictions',
      'wanted',
    ]);
  });
});

describe('avtocod report → findings (the vendor spec example)', () => {
  it('a creation and an exclusion notice are one pledge, excluded, keyed by the creation number', async () => {
    expect((await avtocodProvider.fetch(ctxFor('pledges'), vin)).findings).toEqual([
      {
        key: '2013-001-406288-623',
        payload: {
          notice_number: '2013-001-406288-623',
          status: 'excluded',
          registered_at: '2013-05-30',
          pledgee: 'ЗАО ГлавЭлектро',
          pledgor: 'Евгения Сергеевна Дроздова',
        },
      },
    ]);
  });

  it('restrictions, wanted, accidents and ownership in the layouts (keys as api-cloud gives them)', async () => {
    const { findings, related } = await avtocodProvider.fetch(ctxFor('restrictions'), vin);
    expect(findings).toEqual([
      {
        key: '2015-07-13 · запрет на регистрационные действия',
        payload: expect.objectContaining({
          kind: 'Запрет на регистрационные действия',
          imposed_at: '2015-07-13',
          imposed_by: 'Судебные Органы',
          region: 'Брянская',
        }),
      },
    ]);
    expect(related?.wanted).toEqual([
      {
        key: 'розыск · 2014-02-06',
        payload: { record_id: 'розыск · 2014-02-06', since: '2014-02-06', region: 'Калужская' },
      },
    ]);
    expect(related?.accidents?.[0]?.payload).toMatchObject({
      record_id: '000043057',
      date: '1978-02-14',
      kind: 'Наезд на стоящее ТС',
    });
    expect(related?.registration?.[0]).toEqual({
      key: 'владение с · 2010-02-07',
      payload: {
        record_id: 'владение с · 2010-02-07',
        operation: 'Первичная регистрация',
        date: '2010-02-07',
        owner_type: 'Физическое лицо',
        note: 'владение по 07.04.2011',
      },
    });
  });

  it('an empty report finds nothing', async () => {
    reports = [jsonAnswer('avtocod/fixtures/report-empty.json')];
    expect((await avtocodProvider.fetch(ctxFor('pledges'), vin)).findings).toEqual([]);
  });

  it('a report source in error fails that type only', async () => {
    reports = [jsonAnswer('avtocod/fixtures/report-source-error.json')];
    const failure = await failureOf(avtocodProvider.fetch(ctxFor('pledges'), vin));
    expect(failure?.kind).toBe('unavailable');
    expect((await avtocodProvider.fetch(ctxFor('wanted'), vin)).findings).toHaveLength(1);
  });

  it('parses extra fields; a pledge without its number is unreadable, not a crash', async () => {
    reports = [
      {
        body: JSON.stringify({
          state: 'ok',
          extra: 1,
          data: [
            {
              progress_wait: 0,
              content: { pledges: { items: [{ date: { event: '2013-05-30 00:00:00' } }] } },
            },
          ],
        }),
      },
    ];
    const failure = await failureOf(avtocodProvider.fetch(ctxFor('pledges'), vin));
    expect(failure?.kind).toBe('unreadable');
    expect(failure?.message).toContain('number');
  });
});

describe('avtocod failures (the SDK stubs)', () => {
  it.each([
    [
      'a malformed token (bare event, 400)',
      jsonAnswer('avtocod/fixtures/error-wrong-token-400.json', 400),
      'credentials',
    ],
    [
      'an unknown report type (state fail, 500)',
      jsonAnswer('avtocod/fixtures/error-report-type-not-found-500.json', 500),
      'refused',
    ],
    [
      'a server error page',
      { status: 502, body: '<html><body>502 Bad Gateway</body></html>' },
      'unavailable',
    ],
  ] as const)('%s → %s', async (_, answer, kind) => {
    make = () => answer;
    expect((await failureOf(avtocodProvider.fetch(ctxFor('pledges'), vin)))?.kind).toBe(kind);
  });
});
