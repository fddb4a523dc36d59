import type { IncomingHttpHeaders } from 'node:http';
import type { z } from 'zod';
import { OutboundError, outboundRequest } from '../../../../lib/outbound/outbound-request.ts';
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
 * One request to a provider: one request of the source's budget (request-budget.ts: the rate limit
 * across processes, the daily limit, the price), then lib/outbound with the source's
 * timeout and the 5 MB cap. Transport failures, redirects (never followed) and 429 become the
 * vocabulary here; every other status is the provider adapter's to read.
 */
export async function sendProviderRequest(
  ctx: Pick<ProviderContext, 'type' | 'config'> & {
    /** Takes this request's turn in the source's budget (request-budget.ts); throws when there is none. */
    takeTurn: () => Promise<void>;
  },
  request: ProviderRequest,
): Promise<ProviderAnswer> {
  const url = new URL(`${ctx.config.url}${request.path}`);
  for (const [name, value] of Object.entries(request.query ?? {})) {
    url.searchParams.set(name, value);
  }
  await ctx.takeTurn();
  let response: Awaited<ReturnType<typeof outboundRequest>>;
  try {
    response = await outboundRequest(url.toString(), {
      method: request.method ?? 'GET',
      headers: {
        accept: 'application/json',
        ...(request.json === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' }),
        ...request.headers,
      },
      body: request.json === undefined ? undefined : JSON.stringify(request.json),
      timeoutMs: ctx.config.timeoutMs,
      // SOURCE_<TYPE>_URL is the operator's: no address check. The tenant gives only the identifier,
      // which goes into the query or body, never the host.
      policy: { allowedRanges: [], trusted: true },
      readBody: true,
      maxResponseBytes: PROVIDER_ANSWER_MAX_BYTES,
    });
  } catch (error) {
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
