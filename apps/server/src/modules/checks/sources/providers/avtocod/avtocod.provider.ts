import { createHash } from 'node:crypto';
import type { Finding, SourceType } from '@pledgewatch/contract';
import { z } from 'zod';
import type { Provider, ProviderAnswer, ProviderContext } from '../provider.ts';
import { ProviderFailure } from '../provider-failure.ts';
import { parseShape, readJson } from '../provider-http.ts';
import { AVTOCOD_TYPES, REPORT_SOURCES, SECTIONS } from './avtocod.mapping.ts';

const md5 = (value: string) => createHash('md5').update(value, 'utf8').digest();

/**
 * The `AR-REST` token (providers.md §5.3, the vendor SDK's AuthToken::generate):
 * base64(login:ts:age:base64(md5raw(ts:age:base64(md5raw(password))))), md5raw the 16-byte digest.
 */
export function avtocodToken(login: string, password: string, timestamp: number, age: number): string {
  const passHash = md5(password).toString('base64');
  const salted = md5(`${timestamp}:${age}:${passHash}`).toString('base64');
  return Buffer.from(`${login}:${timestamp}:${age}:${salted}`, 'utf8').toString('base64');
}

/** As the SDK does when it picks the time itself: backdated 60 s, and the age 60 s longer. */
export const TOKEN_AGE = 172_800;
export function authorisation(ctx: Pick<ProviderContext, 'config' | 'now'>): string {
  const token = ctx.config.token ?? '';
  const at = token.indexOf(':');
  const timestamp = Math.floor(ctx.now() / 1000) - 60;
  return `AR-REST ${avtocodToken(token.slice(0, at), token.slice(at + 1), timestamp, TOKEN_AGE + 60)}`;
}

/** The account's report type: configured, else `default@<domain of the login>`. */
export function reportTypeOf(ctx: Pick<ProviderContext, 'config'>): string {
  if (ctx.config.reportType) {
    return ctx.config.reportType;
  }
  const login = (ctx.config.token ?? '').split(':')[0] ?? '';
  return `default@${login.split('@')[1] ?? ''}`;
}

const eventSchema = z.object({ type: z.string().optional(), name: z.string().optional() }).loose();

/** Its two error shapes: `{state:"fail", event:{…}}` and a bare event `{cls, type, name, …}` (a 400). */
function failureOf(body: unknown, status: number): ProviderFailure | null {
  if (typeof body !== 'object' || body === null) {
    return null;
  }
  const record = body as Record<string, unknown>;
  const event =
    record.state === 'fail'
      ? record.event
      : 'cls' in record && 'type' in record && !('state' in record)
        ? record
        : null;
  if (!event && status < 400) {
    return null;
  }
  const parsed = eventSchema.safeParse(event ?? {});
  const type = parsed.success ? (parsed.data.type ?? '') : '';
  const detail = type || `HTTP ${status}`;
  if (/^Security|Auth/.test(type) || status === 401 || status === 403) {
    return new ProviderFailure('credentials', detail);
  }
  if (/Balance|Quota|Limit|Money/i.test(type) || status === 402) {
    return new ProviderFailure('quota', detail);
  }
  if (/^DataSeek|Validation|Query/.test(type) || (status >= 400 && status < 500)) {
    return new ProviderFailure('refused', detail);
  }
  return new ProviderFailure('unavailable', detail);
}

function readAnswer(answer: ProviderAnswer): unknown {
  const body = readJson(answer);
  const failure = failureOf(body, answer.status);
  if (failure) {
    throw failure;
  }
  return body;
}

const madeSchema = z.object({
  state: z.literal('ok'),
  data: z.array(z.object({ uid: z.string().min(1), suggest_get: z.string().optional() }).loose()).min(1),
});
const reportSchema = z.object({
  state: z.literal('ok'),
  data: z
    .array(
      z
        .object({
          progress_wait: z.number().default(0),
          state: z
            .object({
              sources: z.array(z.object({ _id: z.string(), state: z.string() }).loose()).default([]),
            })
            .loose()
            .optional(),
          content: z.record(z.string(), z.unknown()).nullish(),
        })
        .loose(),
    )
    .min(1),
});

type ReportResult = Partial<Record<SourceType, Finding[] | ProviderFailure>>;

/** Polls of one report at most; its sources answer within seconds (suggest_get). */
const MAX_POLLS = 30;

async function makeReport(ctx: ProviderContext, vin: string): Promise<ReportResult> {
  const authorization = authorisation(ctx);
  const made = parseShape(
    madeSchema,
    readAnswer(
      await ctx.send({
        method: 'POST',
        path: `/user/reports/${encodeURIComponent(reportTypeOf(ctx))}/_make`,
        headers: { authorization },
        json: { queryType: 'VIN', query: vin, options: {} },
      }),
    ),
  );
  const { uid, suggest_get } = made.data[0]!;
  const interval = Math.max(50, Math.min(1000, ctx.config.timeoutMs / 10));
  const suggested = suggest_get ? Date.parse(suggest_get) - ctx.now() : 0;
  if (suggested > 0) {
    await ctx.sleep(Math.min(suggested, 5000));
  }
  for (let poll = 1; ; poll++) {
    const report = parseShape(
      reportSchema,
      readAnswer(
        await ctx.send({
          path: `/user/reports/${encodeURIComponent(uid)}`,
          query: { _content: 'true', _detailed: 'true' },
          headers: { authorization },
        }),
      ),
    ).data[0]!;
    if (report.progress_wait > 0 && poll < MAX_POLLS) {
      await ctx.sleep(interval);
      continue;
    }
    const states = new Map((report.state?.sources ?? []).map((source) => [source._id, source.state]));
    const result: ReportResult = {};
    for (const type of AVTOCOD_TYPES) {
      const state = states.get(REPORT_SOURCES[type]!) ?? 'OK';
      if (state === 'PROGRESS' || state === 'WAIT') {
        result[type] = new ProviderFailure('timeout', `раздел отчёта ${REPORT_SOURCES[type]} не готов`);
        continue;
      }
      if (state !== 'OK') {
        result[type] = new ProviderFailure('unavailable', `раздел отчёта ${REPORT_SOURCES[type]}: ${state}`);
        continue;
      }
      const { section, read, empty } = SECTIONS[type]!;
      try {
        result[type] = read(report.content?.[section] ?? empty);
      } catch (error) {
        result[type] = error instanceof ProviderFailure ? error : new ProviderFailure('unreadable', section);
      }
    }
    return result;
  }
}

/**
 * One report serves five source types: a report asked for by one type is shared with the others
 * asking at the same time (in flight), and its findings for them are cached by the source
 * (ProviderResult.related), so the five types cost one report per VIN and TTL.
 */
const inFlight = new Map<string, Promise<ReportResult>>();

/**
 * Avtocod / Spectrumdata B2B: `POST user/reports/{report_type}/_make` with the VIN, then
 * `GET user/reports/{uid}?_content=true&_detailed=true` until the report is complete.
 */
export const avtocodProvider: Provider = {
  name: 'avtocod',
  async fetch(ctx, item) {
    const key = `${ctx.config.url}|${reportTypeOf(ctx)}|${item.identifier}`;
    let report = inFlight.get(key);
    if (!report) {
      report = makeReport(ctx, item.identifier).finally(() => inFlight.delete(key));
      inFlight.set(key, report);
    }
    const result = await report;
    const own = result[ctx.type];
    if (!own) {
      throw new ProviderFailure('refused', `тип источника ${ctx.type} не обслуживается`);
    }
    if (own instanceof ProviderFailure) {
      throw own;
    }
    const related: Partial<Record<SourceType, Finding[]>> = {};
    for (const [type, value] of Object.entries(result) as [SourceType, Finding[] | ProviderFailure][]) {
      if (type !== ctx.type && Array.isArray(value)) {
        related[type] = value;
      }
    }
    return { findings: own, related };
  },
};
