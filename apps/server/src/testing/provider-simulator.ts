import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { simulatorEnvLine } from '../config/source-providers.ts';

/**
 * A local stand-in for the data providers (`npm run providers`): one HTTP server speaking each
 * provider's published format under its own prefix, answering with the published examples kept as the
 * adapters' fixtures (modules/checks/sources/providers/<name>/fixtures). For the app, for the end-to-end
 * tests and for a newcomer who wants to see remote sources work without a contract with anyone.
 *
 *   /parser-api   parser-api.com       (pledges)
 *   /api-cloud    api-cloud.ru         (pledges, restrictions, wanted, accidents, registration)
 *   /fedresurs    Fedresurs REST       (bankruptcy)
 *   /avtocod      Avtocod B2B API      (pledges, restrictions, wanted, accidents, registration)
 *   /json-service our own /check       (any type; finds nothing)
 *
 * Found: the examples' VINs, every VIN whose hash falls on `foundEvery`, and the listed identifiers;
 * any other identifier is «nothing found». Failures on chosen identifiers (FAILURE_VINS, or `failures`).
 */

export const SIMULATED_FAILURES = [
  'credentials',
  'quota',
  'rate_limited',
  'captcha',
  'unavailable',
  'slow',
  'html',
  'huge',
  'redirect',
] as const;
export type SimulatedFailure = (typeof SIMULATED_FAILURES)[number];

/** VINs that always fail the same way, whatever the provider (each in its own format). */
export const FAILURE_VINS: Readonly<Record<string, SimulatedFailure>> = {
  ZZZ00000000000401: 'credentials',
  ZZZ00000000000402: 'quota',
  ZZZ00000000000429: 'rate_limited',
  ZZZ00000000000403: 'captcha',
  ZZZ00000000000503: 'unavailable',
  ZZZ00000000000504: 'slow',
  ZZZ00000000000200: 'html',
  ZZZ00000000000413: 'huge',
  ZZZ00000000000302: 'redirect',
};

/** Identifiers the published examples are about. */
export const EXAMPLE_VINS = ['TMBLB25L9C6086447', 'EXAMPL0V1N1000000', 'Z94CB41AAGR323020'];
export const EXAMPLE_DEBTOR_INN = '500100732259';

export interface ProviderSimulatorOptions {
  port?: number;
  host?: string;
  /** Added to every answer, ms. */
  latencyMs?: number;
  /** Requests per second over all providers; beyond it 429 with Retry-After: 1. 0: none. */
  rateLimit?: number;
  /** Requests per process lifetime; beyond it each provider's quota answer. 0: none. */
  dailyQuota?: number;
  /** Every VIN whose hash is divisible by this is found too (0: only the listed ones). */
  foundEvery?: number;
  /** More identifiers to answer with the examples. */
  found?: string[];
  /** More identifier → failure. */
  failures?: Record<string, SimulatedFailure>;
}

const fixturesDir = path.resolve(import.meta.dirname, '../modules/checks/sources/providers');
const fixtureCache = new Map<string, string>();
const fixture = (name: string): string => {
  let text = fixtureCache.get(name);
  if (text === undefined) {
    text = readFileSync(path.join(fixturesDir, name), 'utf8');
    fixtureCache.set(name, text);
  }
  return text;
};

interface Answer {
  status: number;
  body: string | Buffer;
  headers?: Record<string, string>;
  delayMs?: number;
}
const json = (name: string, status = 200): Answer => ({ status, body: fixture(name) });
const jsonBody = (body: unknown, status = 200): Answer => ({ status, body: JSON.stringify(body) });

const hash = (text: string) => {
  let value = 0;
  for (const char of text) {
    value = (value * 31 + char.charCodeAt(0)) >>> 0;
  }
  return value;
};

/** Each provider's own words for a failure; the transport-level ones are the same for all. */
type Phrasebook = Partial<Record<SimulatedFailure, () => Answer>>;
const PHRASES: Record<string, Phrasebook> = {
  'parser-api': {
    credentials: () => json('parser-api/fixtures/failure-wrong-key.json', 401),
    quota: () => json('parser-api/fixtures/failure-balance.json'),
  },
  'api-cloud': {
    credentials: () => json('api-cloud/fixtures/error-499.json'),
    quota: () => json('api-cloud/fixtures/error-498.json'),
    rate_limited: () => json('api-cloud/fixtures/error-456.json'),
    unavailable: () => json('api-cloud/fixtures/error-404.json', 404),
  },
  fedresurs: {
    credentials: () => json('fedresurs/fixtures/unauthorized.json', 401),
    quota: () => jsonBody({ code: 'LimitExceeded', message: 'Превышен лимит запросов' }, 402),
  },
  avtocod: {
    credentials: () => json('avtocod/fixtures/error-wrong-token-400.json', 400),
    quota: () =>
      jsonBody(
        { state: 'fail', event: { type: 'BalanceNotEnough', name: 'Недостаточно средств на балансе' } },
        402,
      ),
  },
};

function failureAnswer(provider: string, failure: SimulatedFailure): Answer {
  const own = PHRASES[provider]?.[failure];
  if (own) {
    return own();
  }
  const html = (text: string, status = 200): Answer => ({
    status,
    body: text,
    headers: { 'content-type': 'text/html; charset=utf-8' },
  });
  switch (failure) {
    case 'credentials':
      return jsonBody({ error: 'unauthorized' }, 401);
    case 'quota':
      return jsonBody({ error: 'payment required' }, 402);
    case 'rate_limited':
      return { status: 429, body: '', headers: { 'retry-after': '1' } };
    case 'captcha':
      return html(fixture('fixtures/captcha.html'), 403);
    case 'slow':
      return { ...jsonBody({}), delayMs: 30_000 };
    case 'html':
      return html('<!DOCTYPE html><html lang="ru"><body><h1>Личный кабинет</h1></body></html>');
    case 'huge':
      return { status: 200, body: Buffer.alloc(10 * 1024 * 1024, 0x20) };
    case 'redirect':
      return { status: 302, body: '', headers: { location: 'https://example.org/login' } };
    default:
      return html(fixture('fixtures/server-error.html'), 503);
  }
}

export async function startProviderSimulator(options: ProviderSimulatorOptions = {}): Promise<{
  url: string;
  requests: { path: string; at: number }[];
  close: () => Promise<void>;
}> {
  const failures = { ...FAILURE_VINS, ...options.failures };
  const found = new Set([...EXAMPLE_VINS, EXAMPLE_DEBTOR_INN, ...(options.found ?? [])]);
  const foundEvery = options.foundEvery ?? 0;
  const isFound = (identifier: string) =>
    found.has(identifier) ||
    (foundEvery > 0 && identifier.length === 17 && hash(identifier) % foundEvery === 0);
  const requests: { path: string; at: number }[] = [];
  let second = 0;
  let inSecond = 0;

  function route(method: string, url: URL, body: string): Answer {
    const [, provider = '', ...rest] = url.pathname.split('/');
    const tail = `/${rest.join('/')}`;
    const q = (name: string) => url.searchParams.get(name) ?? '';
    if (options.dailyQuota && requests.length > options.dailyQuota) {
      return failureAnswer(provider, 'quota');
    }
    const now = Math.floor(Date.now() / 1000);
    if (now !== second) {
      second = now;
      inSecond = 0;
    }
    if (options.rateLimit && ++inSecond > options.rateLimit) {
      return { status: 429, body: '', headers: { 'retry-after': '1' } };
    }
    const failing = (identifier: string) => failures[identifier];
    switch (provider) {
      case 'parser-api': {
        const vin = q('vin');
        const failure = failing(vin);
        if (failure) {
          return failureAnswer(provider, failure);
        }
        return json(`parser-api/fixtures/search-by-vin${isFound(vin) ? '' : '-empty'}.json`);
      }
      case 'api-cloud': {
        const vin = q('vin');
        const failure = failing(vin);
        if (failure) {
          return failureAnswer(provider, failure);
        }
        const kind = q('type');
        const files: Record<string, [string, string]> = {
          notary: ['zalog-notary', 'zalog-not-found'],
          restrict: ['gibdd-restrict', ''],
          wanted: ['gibdd-wanted', ''],
          dtp: ['gibdd-dtp', ''],
          gibdd: ['gibdd-history', 'gibdd-history-not-found'],
        };
        const pair = files[kind];
        if (!pair || !['/api/zalog.php', '/api/gibdd.php'].includes(tail)) {
          return json('api-cloud/fixtures/error-766.json');
        }
        const [hit, miss] = pair;
        if (isFound(vin)) {
          return json(`api-cloud/fixtures/${hit}.json`);
        }
        return miss
          ? json(`api-cloud/fixtures/${miss}.json`)
          : jsonBody({ status: 200, count: 0, records: [] });
      }
      case 'fedresurs': {
        if (tail === '/v1/auth' && method === 'POST') {
          return json('fedresurs/fixtures/auth.json');
        }
        if (tail === '/v1/bankrupts') {
          const identifier = q('inn') || q('ogrn') || q('ogrnip');
          const failure = failing(identifier);
          if (failure) {
            return failureAnswer(provider, failure);
          }
          return json(`fedresurs/fixtures/bankrupts-${isFound(identifier) ? 'person' : 'empty'}.json`);
        }
        if (tail === '/v1/messages') {
          return json('fedresurs/fixtures/messages.json');
        }
        return jsonBody({ code: 'NotFound', message: 'Неизвестный метод' }, 404);
      }
      case 'avtocod': {
        const make = /\/user\/reports\/[^/]+\/_make$/.exec(tail);
        if (make && method === 'POST') {
          let vin = '';
          try {
            vin = String((JSON.parse(body) as { query?: unknown }).query ?? '');
          } catch {
            return json('avtocod/fixtures/error-wrong-token-400.json', 400);
          }
          const failure = failing(vin);
          if (failure) {
            return failureAnswer(provider, failure);
          }
          const made = JSON.parse(fixture('avtocod/fixtures/report-make.json'));
          made.data[0].uid = `default_${vin}@bank`;
          made.data[0].suggest_get = new Date().toISOString();
          return jsonBody(made);
        }
        const report = /\/user\/reports\/([^/]+)$/.exec(tail);
        if (report) {
          const vin = /_([A-Z0-9]{17})@/.exec(decodeURIComponent(report[1]!))?.[1] ?? '';
          return json(`avtocod/fixtures/report-${isFound(vin) ? 'complete' : 'empty'}.json`);
        }
        return json('avtocod/fixtures/error-report-type-not-found-500.json', 500);
      }
      case 'json-service': {
        const failure = failing(q('identifier'));
        return failure ? failureAnswer(provider, failure) : jsonBody({ findings: [] });
      }
      default:
        return jsonBody({ error: 'unknown provider prefix' }, 404);
    }
  }

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      requests.push({ path: url.pathname, at: Date.now() });
      const answer = route(request.method ?? 'GET', url, Buffer.concat(chunks).toString('utf8'));
      const send = () => {
        if (response.destroyed) {
          return;
        }
        response.writeHead(answer.status, {
          'content-type': 'application/json; charset=utf-8',
          ...answer.headers,
        });
        response.end(answer.body);
      };
      const delay = (options.latencyMs ?? 0) + (answer.delayMs ?? 0);
      if (delay > 0) {
        const timer = setTimeout(send, delay);
        response.on('close', () => clearTimeout(timer));
      } else {
        send();
      }
    });
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const address = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${address.port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readFlags(argv: string[], env: NodeJS.ProcessEnv): ProviderSimulatorOptions {
  const flags = new Map<string, string>();
  for (const arg of argv) {
    const match = /^--([a-z-]+)=(.*)$/.exec(arg);
    if (match) {
      flags.set(match[1]!, match[2]!);
    }
  }
  const value = (flag: string, variable: string) => flags.get(flag) ?? env[variable];
  const number = (flag: string, variable: string, fallback: number) => {
    const raw = value(flag, variable);
    const parsed = raw === undefined || raw === '' ? fallback : Number(raw);
    if (!Number.isFinite(parsed) || parsed < 0) {
      throw new Error(`--${flag} / ${variable}: a number ≥ 0 (given «${raw}»)`);
    }
    return parsed;
  };
  const failures: Record<string, SimulatedFailure> = {};
  for (const entry of (value('fail', 'PROVIDERS_FAIL') ?? '').split(',').filter(Boolean)) {
    const [identifier, kind] = entry.split('=');
    if (!identifier || !(SIMULATED_FAILURES as readonly string[]).includes(kind ?? '')) {
      throw new Error(
        `--fail / PROVIDERS_FAIL: identifier=kind, kind one of ${SIMULATED_FAILURES.join(', ')}`,
      );
    }
    failures[identifier] = kind as SimulatedFailure;
  }
  return {
    port: number('port', 'PROVIDERS_PORT', 4010),
    host: value('host', 'PROVIDERS_HOST') ?? '127.0.0.1',
    latencyMs: number('latency', 'PROVIDERS_LATENCY_MS', 0),
    rateLimit: number('rate-limit', 'PROVIDERS_RATE_LIMIT', 0),
    dailyQuota: number('daily-quota', 'PROVIDERS_DAILY_QUOTA', 0),
    foundEvery: number('found-every', 'PROVIDERS_FOUND_EVERY', 25),
    found: (value('found', 'PROVIDERS_FOUND') ?? '').split(',').filter(Boolean),
    failures,
  };
}

if (import.meta.main) {
  let options: ProviderSimulatorOptions;
  try {
    options = readFlags(process.argv.slice(2), process.env);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  const simulator = await startProviderSimulator(options);
  console.log(`Provider simulator: ${simulator.url} (parser-api, api-cloud, fedresurs, avtocod, json-service)
Found: ${EXAMPLE_VINS.join(', ')}, INN ${EXAMPLE_DEBTOR_INN}${options.foundEvery ? `, and about one VIN in ${options.foundEvery}` : ''}
Failing VINs: ${Object.entries(FAILURE_VINS)
    .map(([vin, kind]) => `${vin} ${kind}`)
    .join(', ')}
Start the app against it (another terminal):
  ${simulatorEnvLine(simulator.url)} npm start`);
  const stop = () => void simulator.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
