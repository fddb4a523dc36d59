import type { IncomingHttpHeaders } from 'node:http';
import type { z } from 'zod';
import { OutboundError, type OutboundResponse } from '../../../../lib/outbound/outbound-request.ts';
import { punctualRequest } from '../../../../lib/outbound/punctual-request.ts';
import { SEND_GUARD_MS } from '../request-budget.ts';
import type { ProviderAnswer, ProviderContext, ProviderRequest } from './provider.ts';
import { ProviderFailure } from './provider-failure.ts';

/** Largest answer read from a provider for one request; beyond it the answer is unreadable. */
export const PROVIDER_ANSWER_MAX_BYTES = 5 * 1024 * 1024;

/** Retry-After as seconds or an HTTP date, in ms; undefined when absent or unusable. */
export function retryAfterMs(headers: IncomingHttpHeaders, now = Date.now()): number | undefined {
  const raw = headers['retry-after'];
  if (typeof raw !== 'string' || raw.trim() === '') {
    return undefined;
  }
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) {
    return seconds >= 0 ? seconds * 1000 : undefined;
  }
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * Turns in a row a request may miss (its process could not send it in time) before it fails as
 * «не ответил вовремя»: a process that starved of CPU this long would only book turns it misses.
 */
export const MAX_MISSED_TURNS = 5;

/** A turn of the source's budget, as sendProviderRequest uses it: when to send (this process's clock). */
export interface ProviderTurn {
  dueAtMs: number;
}

/**
 * One request to a provider: one request of the source's budget (request-budget.ts: the rate limit
 * across processes, the daily limit, the price), sent at its booked time from the punctual thread
 * (lib/outbound/punctual-request.ts) with the source's timeout and the 5 MB cap. A turn the
 * request would go out more than SEND_GUARD_MS late for is given back unsent and another is booked,
 * so no process's hold-up puts more than the limit into a second at the provider. Transport
 * failures, redirects (never followed) and 429 become the vocabulary here; every other status is the
 * provider adapter's to read.
 */
export async function sendProviderRequest<Turn extends ProviderTurn>(
  ctx: Pick<ProviderContext, 'type' | 'config'> & {
    /** Takes this request's turn in the source's budget (request-budget.ts); throws when there is none. */
    takeTurn: () => Promise<Turn>;
    /** A turn that passed unused: counted for nothing (giveBackRequest). */
    missedTurn: (turn: Turn) => Promise<void>;
  },
  request: ProviderRequest,
): Promise<ProviderAnswer> {
  const url = new URL(`${ctx.config.url}${request.path}`);
  for (const [name, value] of Object.entries(request.query ?? {})) {
    url.searchParams.set(name, value);
  }
  const options = {
    method: request.method ?? 'GET',
    headers: {
      accept: 'application/json',
      ...(request.json === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' }),
      ...request.headers,
    },
    body: request.json === undefined ? undefined : JSON.stringify(request.json),
    timeoutMs: ctx.config.timeoutMs,
    // SOURCE_<TYPE>_URL is the operator's: no address check (the punctual thread's trusted policy).
    // The tenant gives only the identifier, which goes into the query or body, never the host.
    readBody: true,
    maxResponseBytes: PROVIDER_ANSWER_MAX_BYTES,
  } as const;
  let response: OutboundResponse | undefined;
  try {
    for (let missed = 0; !response; missed++) {
      if (missed === MAX_MISSED_TURNS) {
        throw new ProviderFailure(
          'timeout',
          `запрос не отправлен вовремя ${missed} раз подряд: сервер перегружен`,
        );
      }
      const turn = await ctx.takeTurn();
      const result = await punctualRequest(url.toString(), options, {
        dueAtMs: turn.dueAtMs,
        lateLimitMs: SEND_GUARD_MS,
      });
      if ('missed' in result) {
        await ctx.missedTurn(turn);
      } else {
        response = result.sent;
      }
    }
  } catch (error) {
    if (error instanceof ProviderFailure) {
      throw error;
    }
    const kind = error instanceof OutboundError ? error.kind : 'connect';
    if (kind === 'timeout') {
      throw new ProviderFailure('timeout', `${(ctx.config.timeoutMs / 1000).toLocaleString('ru-RU')} с`);
    }
    if (kind === 'too_large') {
      throw new ProviderFailure('unreadable', 'ответ больше 5 МБ');
    }
    if (kind === 'invalid') {
      throw new ProviderFailure('unavailable', 'адрес поставщика задан неверно');
    }
    throw new ProviderFailure('unavailable', kind === 'dns' ? 'адрес не найден (DNS)' : 'нет соединения');
  }
  if (response.status >= 300 && response.status < 400) {
    throw new ProviderFailure(
      'unreadable',
      `перенаправление ${response.status} — перенаправления не выполняются`,
    );
  }
  if (response.status === 429) {
    throw new ProviderFailure('rate_limited', 'HTTP 429', { retryAfterMs: retryAfterMs(response.headers) });
  }
  return { status: response.status, headers: response.headers, text: response.body.toString('utf8') };
}

const CAPTCHA_MARKERS = /captcha|капч|доступ запрещ|access denied|qrator|проверк[аи] браузера/i;

/**
 * The answer's JSON. An HTML page is a captcha or block page when it says so (the providers'
 * published failure pages); otherwise an HTML or non-JSON body is read by its HTTP status when that is
 * an error, else unreadable.
 */
export function readJson(answer: ProviderAnswer): unknown {
  const text = answer.text.replace(/^\uFEFF/, '');
  const trimmed = text.trimStart();
  if (trimmed.startsWith('<')) {
    if (CAPTCHA_MARKERS.test(text)) {
      throw new ProviderFailure('blocked', `страница HTML, HTTP ${answer.status}`);
    }
    failForStatus(answer);
    throw new ProviderFailure('unreadable', `страница HTML вместо JSON, HTTP ${answer.status}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    failForStatus(answer);
    throw new ProviderFailure('unreadable', 'не JSON');
  }
}

/** The usual meaning of an HTTP error status, for answers whose body said nothing more precise. */
export function failForStatus(answer: ProviderAnswer): void {
  const { status } = answer;
  if (status >= 200 && status < 300) {
    return;
  }
  if (answer.text.trimStart().startsWith('<') && CAPTCHA_MARKERS.test(answer.text)) {
    throw new ProviderFailure('blocked', `страница HTML, HTTP ${status}`);
  }
  if (status === 401 || status === 403) {
    throw new ProviderFailure('credentials', `HTTP ${status}`);
  }
  if (status === 402) {
    throw new ProviderFailure('quota', 'HTTP 402');
  }
  if (status === 400 || status === 422) {
    throw new ProviderFailure('refused', `HTTP ${status}`);
  }
  throw new ProviderFailure('unavailable', `HTTP ${status}`);
}

/**
 * Parses a provider's JSON against the shape the adapter relies on. Unknown extra fields pass; a
 * missing or mistyped field the mapping needs is an unreadable answer naming the field, never a crash.
 */
export function parseShape<T extends z.ZodType>(schema: T, data: unknown): z.infer<T> {
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'ответ';
    throw new ProviderFailure('unreadable', `поле ${where}: неожиданный формат`);
  }
  return parsed.data;
}
