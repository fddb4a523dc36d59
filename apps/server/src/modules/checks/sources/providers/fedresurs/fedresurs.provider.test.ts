import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  failureOf,
  jsonAnswer,
  providerContext,
  type RecordedRequest,
  type ScriptedAnswer,
  startFixtureServer,
} from '../provider-test-kit.ts';
import { fedresursProvider, forgetFedresursTokens } from './fedresurs.provider.ts';

/** Answers per path; a test replaces what it needs. */
let routes: Record<string, (request: RecordedRequest) => ScriptedAnswer> = {};
const defaultRoutes = () => ({
  '/v1/auth': () => jsonAnswer('fedresurs/fixtures/auth.json'),
  '/v1/bankrupts': () => jsonAnswer('fedresurs/fixtures/bankrupts-person.json'),
  '/v1/messages': () => jsonAnswer('fedresurs/fixtures/messages.json'),
});
const server = await startFixtureServer((request) =>
  (routes[request.path] ?? (() => ({ status: 404 })))(request),
);
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  routes = defaultRoutes();
  forgetFedresursTokens();
});

const ctx = providerContext('bankruptcy', {
  provider: 'fedresurs',
  url: server.url,
  token: 'demo:demo-password',
});
const person = { kind: 'document' as const, documentType: 'inn' as const, identifier: '500100732259' };

describe('fedresurs requests', () => {
  it('signs in once with login and password, then asks debtors and their messages with the JWT', async () => {
    await fedresursProvider.fetch(ctx, person);
    await fedresursProvider.fetch(ctx, person);
    const [auth, bankrupts, messages] = server.requests;
    expect(auth).toMatchObject({ method: 'POST', path: '/v1/auth' });
    expect(JSON.parse(auth!.body)).toEqual({ login: 'demo', password: 'demo-password' });
    expect(auth!.headers['content-type']).toContain('application/json');
    expect(bankrupts).toMatchObject({
      method: 'GET',
      path: '/v1/bankrupts',
      query: { type: 'Person', inn: '500100732259', limit: '10', offset: '0' },
    });
    expect(bankrupts!.headers.authorization).toMatch(/^Bearer eyJ/);
    expect(messages).toMatchObject({
      path: '/v1/messages',
      query: expect.objectContaining({
        bankruptGUID: '3f2b6c1e-7a4d-4e0b-9c55-1d2e3f4a5b6c',
        includeContent: 'true',
        sort: 'DatePublish:desc',
      }),
    });
    // The token is kept until it expires: the second check signs in no more.
    expect(server.requests.filter((request) => request.path === '/v1/auth')).toHaveLength(1);
    expect(server.requests).toHaveLength(5);
  });

  it.each([
    [
      { documentType: 'inn', identifier: '7707083893' },
      { type: 'Company', inn: '7707083893' },
    ],
    [
      { documentType: 'ogrn', identifier: '1027700132195' },
      { type: 'Company', ogrn: '1027700132195' },
    ],
    [
      { documentType: 'ogrnip', identifier: '304500116000157' },
      { type: 'Person', ogrnip: '304500116000157' },
    ],
  ] as const)('searches %o as %o', async (item, query) => {
    routes['/v1/bankrupts'] = () => jsonAnswer('fedresurs/fixtures/bankrupts-empty.json');
    expect((await fedresursProvider.fetch(ctx, { kind: 'document', ...item })).findings).toEqual([]);
    expect(server.requests.find((request) => request.path === '/v1/bankrupts')?.query).toEqual({
      ...query,
      limit: '10',
      offset: '0',
    });
  });

  it('searches by INN, OGRN and OGRNIP only: runs and checks never ask it about passports', () => {
    expect(fedresursProvider.documentTypes).toEqual(['inn', 'ogrn', 'ogrnip']);
  });

  it('signs in again when the kept token is refused', async () => {
    await fedresursProvider.fetch(ctx, person);
    let refused = false;
    routes['/v1/bankrupts'] = () => {
      if (!refused) {
        refused = true;
        return { status: 401, body: '' };
      }
      return jsonAnswer('fedresurs/fixtures/bankrupts-empty.json');
    };
    expect((await fedresursProvider.fetch(ctx, person)).findings).toEqual([]);
    expect(server.requests.filter((request) => request.path === '/v1/auth')).toHaveLength(2);
  });
});

describe('fedresurs answers → findings', () => {
  it('one finding per case with its latest message, type and date in Russian', async () => {
    expect((await fedresursProvider.fetch(ctx, person)).findings).toEqual([
      {
        key: 'А41-12345/2024',
        payload: {
          case_number: 'А41-12345/2024',
          status: 'open',
          opened_at: '2024-03-11',
          debtor: 'Иванов Пётр Сергеевич',
          last_message: 'Объявление о проведении торгов',
          last_message_at: '2024-09-02',
        },
      },
    ]);
  });

  it('a completed case is closed on the day of its closing message', async () => {
    routes['/v1/messages'] = () => ({
      body: JSON.stringify({
        total: 2,
        extra: true,
        pageData: [
          {
            datePublish: '2025-02-01T10:00:00',
            type: 'ArbitralDecree',
            unknownField: 1,
            content:
              '<MessageData><MessageInfo MessageType="ArbitralDecree"><CaseNumber>А41-1/2024</CaseNumber><DecisionType Id="9" Name="о завершении реализации имущества гражданина"/></MessageInfo></MessageData>',
          },
          {
            datePublish: '2024-03-11T12:30:00',
            type: 'ArbitralDecree',
            content:
              '<MessageData><MessageInfo MessageType="ArbitralDecree"><CaseNumber>А41-1/2024</CaseNumber></MessageInfo></MessageData>',
          },
        ],
      }),
    });
    const [finding] = (await fedresursProvider.fetch(ctx, person)).findings;
    expect(finding!.payload).toMatchObject({
      status: 'closed',
      opened_at: '2024-03-11',
      closed_at: '2025-02-01',
      last_message: 'Сообщение о судебном акте: о завершении реализации имущества гражданина',
    });
  });

  it.each([
    [
      'a DOCTYPE with entities',
      '<!DOCTYPE m [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><MessageData><CaseNumber>&b;</CaseNumber></MessageData>',
      'DOCTYPE',
    ],
    ['malformed XML', '<MessageData><CaseNumber>А41-1/2024</MessageData>', 'некорректный XML'],
    ['nesting past the cap', `${'<a>'.repeat(40)}${'</a>'.repeat(40)}`, 'вложенность'],
  ])('message content with %s is an unreadable answer', async (_, content, detail) => {
    routes['/v1/messages'] = () => ({
      body: JSON.stringify({
        total: 1,
        pageData: [{ datePublish: '2024-03-11T12:30:00', type: 'ArbitralDecree', content }],
      }),
    });
    const failure = await failureOf(fedresursProvider.fetch(ctx, person));
    expect(failure?.kind).toBe('unreadable');
    expect(failure?.message).toContain(detail);
  });

  it('reads namespaced elements by their local names', async () => {
    routes['/v1/messages'] = () => ({
      body: JSON.stringify({
        total: 1,
        pageData: [
          {
            datePublish: '2024-03-11T12:30:00',
            type: 'ArbitralDecree',
            content:
              '<m:MessageData xmlns:m="urn:x"><m:MessageInfo MessageType="ArbitralDecree"><m:CaseNumber> А41-7/2024 </m:CaseNumber></m:MessageInfo></m:MessageData>',
          },
        ],
      }),
    });
    expect((await fedresursProvider.fetch(ctx, person)).findings.map((finding) => finding.key)).toEqual([
      'А41-7/2024',
    ]);
  });

  it('a message without its date is an unreadable answer, not a crash', async () => {
    routes['/v1/messages'] = () => ({ body: JSON.stringify({ total: 1, pageData: [{ type: 'Auction' }] }) });
    const failure = await failureOf(fedresursProvider.fetch(ctx, person));
    expect(failure?.kind).toBe('unreadable');
    expect(failure?.message).toContain('datePublish');
  });
});

describe('fedresurs failures', () => {
  it.each([
    ['a refused sign-in', '/v1/auth', jsonAnswer('fedresurs/fixtures/unauthorized.json', 401), 'credentials'],
    [
      'a 200 with code and message',
      '/v1/bankrupts',
      jsonAnswer('fedresurs/fixtures/rejected.json'),
      'refused',
    ],
    ['a server error', '/v1/bankrupts', { status: 503, body: '' }, 'unavailable'],
    [
      'a QRATOR block page',
      '/v1/bankrupts',
      { status: 403, body: '<html><body>QRATOR: доступ запрещен</body></html>' },
      'blocked',
    ],
  ] as const)('%s → %s', async (_, path, answer, kind) => {
    routes[path] = () => answer;
    expect((await failureOf(fedresursProvider.fetch(ctx, person)))?.kind).toBe(kind);
  });
});
