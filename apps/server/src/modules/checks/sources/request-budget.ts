/**
 * The request budget of a remote source, shared by every app and worker process through PostgreSQL
 * (0063_source_request_budget.sql): SOURCE_<TYPE>_RATE_LIMIT requests per second across all of
 * them, SOURCE_<TYPE>_DAILY_LIMIT requests per Moscow day, SOURCE_<TYPE>_PRICE roubles per request.
 * Every outgoing request to a provider (each retry too: the provider counts and bills it) takes one.
 */
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
 * How late a request may leave after its slot: the slots are spaced (1000 + SLOT_TOLERANCE_MS) / rate
 * apart, so requests that leave up to this late still number at most `rate` in any window of one
 * second (a window can hold requests of slots up to this much before it). A process that wakes
 * later than LATE_WAKE_MS (a busy event loop, a slow answer from the database) takes a new slot
 * instead of sending on a stale one; the rest is left for the way from here to the socket. The
 * price: at most 3 % under the limit.
 */
export const SLOT_TOLERANCE_MS = 30;
const LATE_WAKE_MS = 15;

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
  const { rowCount } = await db.query(
    `INSERT INTO source_request_days AS d (source_type, day, requests, spend)
     SELECT $1, $2::date, 1, $4 WHERE $3::int IS NULL OR $3 > 0
     ON CONFLICT (source_type, day) DO UPDATE SET requests = d.requests + 1, spend = d.spend + $4
      WHERE $3::int IS NULL OR d.requests < $3`,
    [type, moscowDate(now), config.dailyLimit ?? null, config.price ?? 0],
  );
  return rowCount === 1;
}

/**
 * Takes the source's next free send time and moves it one interval on, in one statement (the row's
 * lock orders concurrent takers across processes). Returns the slot and the moment it was taken,
 * both by the database's clock (epoch ms).
 */
async function takeSlot(
  db: Queryable,
  type: SourceType,
  rateLimit: number,
): Promise<{ slot: number; taken: number }> {
  const intervalMs = (1000 + SLOT_TOLERANCE_MS) / rateLimit;
  const { rows } = await db.query<{ slot: number; taken: number }>(
    `INSERT INTO source_rate_slots AS s (source_type, next_slot)
     VALUES ($1, clock_timestamp() + $2::float8 * interval '1 millisecond')
     ON CONFLICT (source_type) DO UPDATE
       SET next_slot = greatest(s.next_slot, clock_timestamp()) + $2::float8 * interval '1 millisecond'
     RETURNING extract(epoch FROM next_slot)::float8 * 1000 - $2::float8 AS slot,
               extract(epoch FROM clock_timestamp())::float8 * 1000 AS taken`,
    [type, intervalMs],
  );
  return rows[0]!;
}

/**
 * The database's clock minus this process's monotonic clock, bounded from recent statements: one
 * that left at `sent` and came back at `received` with the database's `taken` puts the offset in
 * [taken − received, taken − sent]. Each bound is the tightest of the last 10 s, so one answer
 * delayed by a busy event loop neither makes a process send early nor hides its lateness.
 */
const offsetSamples: { at: number; low: number; high: number }[] = [];
function clockOffset(sample: { sent: number; received: number; taken: number }): {
  low: number;
  high: number;
} {
  offsetSamples.push({
    at: sample.received,
    low: sample.taken - sample.received,
    high: sample.taken - sample.sent,
  });
  while (
    offsetSamples.length > 1 &&
    (offsetSamples[0]!.at < sample.received - 10_000 || offsetSamples.length > 256)
  ) {
    offsetSamples.shift();
  }
  let low = -Infinity;
  let high = Infinity;
  for (const each of offsetSamples) {
    low = Math.max(low, each.low);
    high = Math.min(high, each.high);
  }
  if (low > high) {
    // The database's clock was set (the bounds disagree): trust this statement alone.
    offsetSamples.splice(0, offsetSamples.length - 1);
    return { low: sample.taken - sample.received, high: sample.taken - sample.sent };
  }
  return { low, high };
}

/** Waits for a send time of the source under its rate limit, across all processes. */
export async function waitForSlot(db: Queryable, type: SourceType, rateLimit: number): Promise<void> {
  for (;;) {
    const sent = performance.now();
    const { slot, taken } = await takeSlot(db, type, rateLimit);
    const offset = clockOffset({ sent, received: performance.now(), taken });
    // Woken by the low bound: never before the slot by the database's clock.
    const waitMs = slot - offset.low - performance.now();
    if (waitMs > 0) {
      await sleep(waitMs);
    }
    // Lateness by the high bound: never underestimated.
    if (performance.now() + offset.high - slot <= LATE_WAKE_MS) {
      return;
    }
  }
}

/**
 * One request of the source: counted against today's limit and priced, then sent no earlier than
 * its slot under the rate limit. Returns DAILY_LIMIT_REACHED, without waiting, when the day's
 * limit is spent: the caller must not send the request (and must not take the item as asked).
 */
export async function takeRequest(
  db: Queryable,
  type: SourceType,
  config: RequestBudgetConfig,
  options: { now?: Date } = {},
): Promise<'ok' | typeof DAILY_LIMIT_REACHED> {
  if (!(await countRequest(db, type, config, options.now))) {
    return DAILY_LIMIT_REACHED;
  }
  await waitForSlot(db, type, config.rateLimit);
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

/** The most of these times (ms) that fall into any window of one second: what a rate limit caps. */
export function busiestSecond(times: number[]): number {
  const sorted = times.toSorted((a, b) => a - b);
  let most = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while (sorted[end]! - sorted[start]! >= 1000) {
      start++;
    }
    most = Math.max(most, end - start + 1);
  }
  return most;
}
