import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  failureOf,
  fixture,
  jsonAnswer,
  providerContext,
  type ScriptedAnswer,
  startFixtureServer,
} from '../provider-test-kit.ts';
import { parserApiProvider } from './parser-api.provider.ts';

let next: ScriptedAnswer = jsonAnswer('parser-api/fixtures/search-by-vin.json');
const server = await startFixtureServer(() => next);
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

const ctx = providerContext('pledges', { provider: 'parser-api', url: server.url, token: 'key-123' });
const vin = { kind: 'vin' as const, documentType: null, identifier: 'TMBLB25L9C6086447' };

describe('parser-api (published example)', () => {
  it('asks search_by_vin with the key and the VIN in the query', async () => {
    next = jsonAnswer('parser-api/fixtures/search-by-vin.json');
    await parserApiProvider.fetch(ctx, vin);
    expect(server.requests).toEqual([
      expect.objectContaining({
        method: 'GET',
        path: '/parser/reestr_api/search_by_vin',
        query: { key: 'key-123', vin: 'TMBLB25L9C6086447' },
      }),
    ]);
  });

  it('reads the example into a pledge keyed by its notice number, in the dataset layout', async () => {
    next = jsonAnswer('parser-api/fixtures/search-by-vin.json');
    expect((await parserApiProvider.fetch(ctx, vin)).findings).toEqual([
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

  it('reads an exclusion in the history as an excluded pledge, a hidden pledgee as unpublished', async () => {
    const record = JSON.parse(fixture('parser-api/fixtures/search-by-vin.json')).records[0];
    record.pledgees = [];
    record.history.push({ date: '02.06.2019 10:00', type: 'Исключение' });
    next = { body: JSON.stringify({ success: 1, records: [record] }) };
    const [pledge] = (await parserApiProvider.fetch(ctx, vin)).findings;
    expect(pledge!.payload).toMatchObject({ status: 'excluded', pledgee: 'сведения не публикуются' });
  });

  it('parses an answer with extra unknown fields alike', async () => {
    const body = JSON.parse(fixture('parser-api/fixtures/search-by-vin.json'));
    body.took_ms = 12;
    body.records[0].new_field = { nested: true };
    next = { body: JSON.stringify(body) };
    expect((await parserApiProvider.fetch(ctx, vin)).findings[0]!.key).toBe('2015-000-426318-974');
  });

  it('finds nothing in an empty list', async () => {
    next = jsonAnswer('parser-api/fixtures/search-by-vin-empty.json');
    expect((await parserApiProvider.fetch(ctx, vin)).findings).toEqual([]);
  });

  it.each([
    [
      'a record without its number',
      { success: 1, records: [{ register_date: '2015-02-07' }] },
      'поле number',
    ],
    ['no records list', { success: 1 }, 'поле records'],
    [
      'a malformed date',
      { success: 1, records: [{ number: '2015-000-426318-974', register_date: 'вчера' }] },
      'register_date',
    ],
  ])('calls %s an unreadable answer, not a crash', async (_, body, detail) => {
    next = { body: JSON.stringify(body) };
    const failure = await failureOf(parserApiProvider.fetch(ctx, vin));
    expect(failure?.kind).toBe('unreadable');
    expect(failure?.message).toContain(detail);
  });

  it.each([
    ['parser-api/fixtures/failure-wrong-key.json', 200, 'credentials'],
    ['parser-api/fixtures/failure-balance.json', 200, 'quota'],
    ['parser-api/fixtures/failure-wrong-key.json', 401, 'credentials'],
  ] as const)('maps %s (HTTP %i) to %s', async (name, status, kind) => {
    next = jsonAnswer(name, status);
    expect((await failureOf(parserApiProvider.fetch(ctx, vin)))?.kind).toBe(kind);
  });

  it.each([
    // The registry's own failures, as its clients see them (providers.md §1.1), passed on in parser-api's envelope.
    [{ success: 0, error: 'Не пройдена проверка CAPTCHA' }, 'blocked'],
    [{ success: 0, error: 'Доступ запрещен' }, 'blocked'],
    [{ success: 0, message: 'captcha token expired' }, 'blocked'],
    [{ success: 0, error: 'Сервис временно недоступен' }, 'unavailable'],
    [{ success: 0, error: 'Ошибка сервиса' }, 'unavailable'],
  ] as const)('maps the error %o to %s', async (body, kind) => {
    next = { body: JSON.stringify(body) };
    expect((await failureOf(parserApiProvider.fetch(ctx, vin)))?.kind).toBe(kind);
  });
});
