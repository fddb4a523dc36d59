/**
 * The request budget of a remote source, shared by every app and worker process through PostgreSQL
 * (0063_source_request_budget.sql; the rate window, 0106): SOURCE_<TYPE>_RATE_LIMIT requests per
 * second across all of them, SOURCE_<TYPE>_DAILY_LIMIT requests per Moscow day, SOURCE_<TYPE>_PRICE roubles per request.
 * Every outgoing request to a provider (each retry too: the provider counts and bills it) takes one.
 * A provider's Retry-After pauses its account for every process (source_pauses, 0108).
 */
import { createHash } from 'node:crypto';
import type { SourceType } from '@pledgewatch/contract';
import type { Queryable } from '../../../db/pool.ts';
import { moscowDate } from '../../../lib/moscow-time.ts';

export interface RequestBudgetConfig {
  /** Requests per second, all processes together. */
  rateLimit: number;
  /** Requests per Moscow day; undefined: no daily limit. */
  dailyLimit?: number;
  /** Roubles per request; 0 when not configured. */
  price?: number;
}

/** Why a request was not taken: today's limit is spent (the request must not be sent). */
export const DAILY_LIMIT_REACHED = 'daily_limit';

/**
 * The rate limit's window is this much longer than a second. The window bounds the admissions by the
 * database's clock; a request reaches the provider a little after its admission (the answer's way
 * back, the event loop, the socket), and that delay varies. A window of 1 s + SEND_GUARD_MS keeps
 * at most `rate` requests in any second at the provider while the delays differ by less than this.
 * The price: at most 3 % under the limit.
 */
export const SEND_GUARD_MS = 30;

/**
 * Admissions are spaced one interval apart (the window over the limit: 5.15 ms at 200/s, 0107); a
 * waiter that comes up to this much late keeps the interval it was late by, so a busy event loop
 * does not lower the rate, and after an idle spell at most this much's worth goes at once.
 */
export const SEND_BURST_MS = 25;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Counts one request of the source against its Moscow day (`now`'s): the request count and the
 * spend go up together, only while the count is below the daily limit. false: the limit is spent.
 */
export async function countRequest(
  db: Queryable,
  type: SourceType,
  config: Pick<RequestBudgetConfig, 'dailyLimit' | 'price'>,
  now: Date = new Date(),
): Promise<boolean> {
  return (await countUnlessPaused(db, type, config, { now })).counted;
}

/**
 * countRequest, unless the provider account (accountKey) is paused by a Retry-After (source_pauses,
 * 0108): then nothing is counted and the pause left (ms, the database's clock) comes back. The pause
 * is read in the counting statement itself, so honouring it in every process costs no round trip.
 */
async function countUnlessPaused(
  db: Queryable,
  type: SourceType,
  config: Pick<RequestBudgetConfig, 'dailyLimit' | 'price'>,
  options: { now?: Date; account?: string },
): Promise<{ counted: boolean; pausedMs: number | null }> {
  const { rows } = await db.query<{ counted: boolean; paused_ms: number | null }>(
    `WITH pause AS (
       SELECT extract(epoch FROM p.paused_until - c.at)::float8 * 1000 AS ms
         FROM source_pauses p, (SELECT clock_timestamp() AS at) c
        WHERE p.account = $5 AND p.paused_until > c.at
     ), counted AS (
       INSERT INTO source_request_days AS d (source_type, day, requests, spend)
       SELECT $1, $2::date, 1, $4 WHERE ($3::int IS NULL OR $3 > 0) AND NOT EXISTS (SELECT FROM pause)
       ON CONFLICT (source_type, day) DO UPDATE SET requests = d.requests + 1, spend = d.spend + $4
        WHERE $3::int IS NULL OR d.requests < $3
       RETURNING 1
     )
     SELECT EXISTS (SELECT FROM counted) AS counted, (SELECT ms FROM pause) AS paused_ms`,
    [
      type,
      moscowDate(options.now ?? new Date()),
      config.dailyLimit ?? null,
      config.price ?? 0,
      options.account ?? null,
    ],
  );
  return { counted: rows[0]!.counted, pausedMs: rows[0]!.paused_ms };
}

/** The key of a provider account in source_pauses: a hash of its address and token, never the token. */
export const accountKey = (url: string, token: string | undefined): string =>
  createHash('sha256')
    .update(`${url}\n${token ?? ''}`)
    .digest('hex');

/**
 * Pauses a provider account for `ms` (its Retry-After) in every process: no request to it is counted
 * or sent before then (takeRequest). A pause only ever moves forward.
 */
export async function pauseAccount(db: Queryable, account: string, ms: number): Promise<void> {
  await db.query(
    `INSERT INTO source_pauses AS p (account, paused_until)
     VALUES ($1, clock_timestamp() + $2 * interval '1 millisecond')
     ON CONFLICT (account) DO UPDATE SET paused_until = greatest(p.paused_until, EXCLUDED.paused_until)`,
    [account, ms],
  );
}

/**
 * Waits until the source's window of 1 s (+ SEND_GUARD_MS) has room and its pacing allows a request
 * (one every window / rate, SEND_BURST_MS of slack), and takes it, across all processes
 * (take_source_send, 0106 and 0107): the admission and its recorded send time are one call under
 * the source's row lock, so no more than `rateLimit` requests are admitted in any window whatever
 * the waiters' timing, and they are spread over it rather than sent in one burst. A waiter that
 * finds the window full is given a wake-up time in line (so that waiters do not all ask at once);
 * one that wakes late, or finds the room taken, simply asks again and is told when the window has
 * room: no capacity is held for it, so none is lost.
 * Returns the recorded send time (epoch ms, the database's clock).
 */
export async function waitForSend(db: Queryable, type: SourceType, rateLimit: number): Promise<number> {
  // In whole requests: a limit of 2.5/s lets 2 into any second; one under 1/s lets 1 into 1/rate s.
  const count = rateLimit >= 1 ? Math.floor(rateLimit) : 1;
  const windowMs = (rateLimit >= 1 ? 1000 : 1000 / rateLimit) + SEND_GUARD_MS;
  const spacingMs = windowMs / count;
  for (let queued = false; ; queued = true) {
    const { rows } = await db.query<{ admitted: boolean; sent_at_ms: number | null; wait_ms: number }>(
      'SELECT admitted, sent_at_ms, wait_ms FROM take_source_send($1, $2, $3, $4, $5, $6)',
      [type, count, windowMs, queued, spacingMs, SEND_BURST_MS],
    );
    const { admitted, sent_at_ms, wait_ms } = rows[0]!;
    if (admitted) {
      return sent_at_ms!;
    }
    // Both ends of wait_ms are the database's clock, and the sleep starts after its answer came
    // back: never early. A floor of 1 ms keeps a rounding error from asking in a tight loop.
    await sleep(Math.max(1, Math.ceil(wait_ms)));
  }
}

/**
 * One request of the source: counted against today's limit and priced, then admitted under the
 * rate limit (waitForSend). Returns DAILY_LIMIT_REACHED, without waiting, when the day's
 * limit is spent: the caller must not send the request (and must not take the item as asked).
 * With `account` (accountKey), returns `{ pausedMs }` without counting while a Retry-After pauses
 * that provider account (pauseAccount): the caller waits it out and asks again, or gives up.
 */
export async function takeRequest(
  db: Queryable,
  type: SourceType,
  config: RequestBudgetConfig,
  options: { now?: Date; account?: string } = {},
): Promise<'ok' | typeof DAILY_LIMIT_REACHED | { pausedMs: number }> {
  const { counted, pausedMs } = await countUnlessPaused(db, type, config, options);
  if (pausedMs !== null) {
    return { pausedMs };
  }
  if (!counted) {
    return DAILY_LIMIT_REACHED;
  }
  await waitForSend(db, type, config.rateLimit);
  return 'ok';
}

export interface RequestDayRow {
  source_type: SourceType;
  requests_today: number;
  spend_today: string;
  spend_month: string;
}

/** Per source: requests and spend of the Moscow day of `now`, and spend of its calendar month. */
export async function listRequestTotals(db: Queryable, now: Date = new Date()): Promise<RequestDayRow[]> {
  const { rows } = await db.query<RequestDayRow>(
    `SELECT source_type,
            coalesce(sum(requests) FILTER (WHERE day = $1::date), 0)::int AS requests_today,
            coalesce(sum(spend) FILTER (WHERE day = $1::date), 0)::text AS spend_today,
            coalesce(sum(spend), 0)::text AS spend_month
       FROM source_request_days
      WHERE day >= date_trunc('month', $1::date)::date AND day <= $1::date
      GROUP BY source_type`,
    [moscowDate(now)],
  );
  return rows;
}

/** Requests left today for a source with a daily limit; null without one. */
export async function requestsLeftToday(
  db: Queryable,
  type: SourceType,
  dailyLimit: number | undefined,
  now: Date = new Date(),
): Promise<number | null> {
  if (dailyLimit === undefined) {
    return null;
  }
  const { rows } = await db.query<{ requests: number }>(
    'SELECT requests FROM source_request_days WHERE source_type = $1 AND day = $2::date',
    [type, moscowDate(now)],
  );
  return Math.max(0, dailyLimit - (rows[0]?.requests ?? 0));
}

/** The most of these times (ms) that fall into any window of one second (or `windowMs`): what a rate limit caps. */
export function busiestSecond(times: number[], windowMs = 1000): number {
  const sorted = times.toSorted((a, b) => a - b);
  let most = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while (sorted[end]! - sorted[start]! >= windowMs) {
      start++;
    }
    most = Math.max(most, end - start + 1);
  }
  return most;
}
