/**
 * The request budget of a remote source, shared by every app and worker process through PostgreSQL
 * (0063_source_request_budget.sql; the rate window, 0106; pacing, 0107; one booking per request,
 * 0109): SOURCE_<TYPE>_RATE_LIMIT requests per second across all of them, SOURCE_<TYPE>_DAILY_LIMIT requests per Moscow day, SOURCE_<TYPE>_PRICE roubles per request.
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
 * The rate limit's window is this much longer than a second. The window bounds the send times booked
 * by the database's clock; a request leaves a little after its booked time (the thread's timer, the
 * socket), and that delay varies. A window of 1 s + SEND_GUARD_MS keeps at most `rate` requests in
 * any second at the provider while the delays differ by less than this, so a request that would
 * leave later than this after its time is not sent on that turn (sendProviderRequest). The price:
 * at most 3 % under the limit.
 */
export const SEND_GUARD_MS = 30;

/**
 * Bookings are spaced one interval apart (the window over the limit: 5.15 ms at 200/s, 0107); after
 * an idle spell at most this much's worth is booked at once.
 */
export const SEND_BURST_MS = 25;

/**
 * A request is booked at least this far ahead (0110), so that its booking's answer can reach the
 * thread that sends it (lib/outbound/punctual-request.ts) before its time, even from a process whose
 * main thread is busy: a turn that reaches it later than SEND_GUARD_MS after its time is lost. It
 * adds this much to a lone request's wait; under load requests wait longer than this for their turn
 * anyway.
 */
export const SEND_LEAD_MS = 50;

/** The key of a provider account in source_pauses: a hash of its address and token, never the token. */
export const accountKey = (url: string, token: string | undefined): string =>
  createHash('sha256')
    .update(`${url}\n${token ?? ''}`)
    .digest('hex');

/**
 * Pauses a provider account for `ms` (its Retry-After) in every process: no request to it is counted
 * or booked before then (takeRequest). A pause only ever moves forward.
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
 * How far the database's clock is ahead of this process's (ms; negative: behind), as the bookings
 * show it: a booking states the database's time when it was made (send_at_ms − wait_ms), and its
 * answer arrives here later than that, so each sample (database time − arrival here) is at most the
 * true lead. The largest sample of the last LEAD_KEPT_MS is the estimate: a booked time moved to
 * this clock with it is never earlier than the booked moment, and late only by the quickest recent
 * answer's way back. A step of this machine's clock (set by hand, or by NTP at a large offset) would
 * make older samples overstate the lead, and requests go early: a step shows as a change of the wall
 * clock against the monotonic one (which NTP only slews, as it does the wall clock), and drops
 * every sample taken before it.
 */
export class DatabaseClock {
  /** Per second of arrival here, the largest sample and the wall − monotonic clock it was taken at. */
  readonly #seconds: { second: number; lead: number; mark: number }[] = [];
  readonly #mark: () => number;

  constructor(mark: () => number = () => Date.now() - performance.now()) {
    this.#mark = mark;
  }

  note(databaseNowMs: number, arrivedAtMs: number): void {
    const mark = this.#mark();
    const second = Math.floor(arrivedAtMs / 1000);
    const sample = databaseNowMs - arrivedAtMs;
    const kept = this.#seconds.filter(
      (entry) => entry.second > second - LEAD_KEPT_MS / 1000 && Math.abs(entry.mark - mark) <= CLOCK_STEP_MS,
    );
    this.#seconds.length = 0;
    this.#seconds.push(...kept);
    const last = this.#seconds.at(-1);
    if (last?.second === second) {
      last.lead = Math.max(last.lead, sample);
    } else {
      this.#seconds.push({ second, lead: sample, mark });
    }
  }

  /** A time of the database's clock on this process's clock (after at least one note). */
  toLocal(databaseMs: number): number {
    return databaseMs - Math.max(...this.#seconds.map((entry) => entry.lead));
  }
}

/** A change of the wall clock against the monotonic one larger than this is a step (Date.now() is whole ms). */
const CLOCK_STEP_MS = 2;

/** How long a sample of the database clock's lead counts (DatabaseClock). */
export const LEAD_KEPT_MS = 10_000;

const databaseClock = new DatabaseClock();

/** A request's booked turn. */
export interface SendTurn {
  /** The booked send time, epoch ms by the database's clock: what the rate limit bounds. */
  sendAtMs: number;
  /** The same moment by this process's clock, never before it (DatabaseClock): when to send. */
  dueAtMs: number;
  /** The Moscow day and the price it was counted under (giveBackRequest). */
  day: string;
  price: number;
}

/**
 * One request of the source, in one round trip (reserve_source_send, 0109): unless the provider
 * account (`account`, accountKey) is paused by a Retry-After, the request is counted against today's
 * limit and priced, and its send time is booked under the source's row lock: the first time at
 * which the window of 1 s (+ SEND_GUARD_MS) has room and the pacing allows it (one every window /
 * rate, SEND_BURST_MS of slack), across all processes. Bookings never move back in time, so no more
 * than `rateLimit` are booked into any window whatever the processes' timing; a process that dies
 * holding one leaves its time unused, never over the limit.
 * The caller sends at `dueAtMs` and not later than SEND_GUARD_MS after it (lib/outbound/
 * punctual-request.ts), or gives the turn back (giveBackRequest) and books another: a request sent
 * later than that could meet the next window's requests at the provider.
 * Returns DAILY_LIMIT_REACHED when the day's limit is spent (the caller must not send, and must not
 * take the item as asked), and `{ pausedMs }`, counting nothing, while a Retry-After pauses the
 * account (pauseAccount): the caller waits it out and asks again, or gives up.
 */
export async function takeRequest(
  db: Queryable,
  type: SourceType,
  config: RequestBudgetConfig,
  options: { now?: Date; account?: string } = {},
): Promise<SendTurn | typeof DAILY_LIMIT_REACHED | { pausedMs: number }> {
  const { rateLimit } = config;
  // In whole requests: a limit of 2.5/s lets 2 into any second; one under 1/s lets 1 into 1/rate s.
  const count = rateLimit >= 1 ? Math.floor(rateLimit) : 1;
  const windowMs = (rateLimit >= 1 ? 1000 : 1000 / rateLimit) + SEND_GUARD_MS;
  const day = moscowDate(options.now ?? new Date());
  const price = config.price ?? 0;
  const { rows } = await db.query<{
    outcome: 'reserved' | 'paused' | 'daily_limit';
    send_at_ms: number | null;
    wait_ms: number;
  }>(
    'SELECT outcome, send_at_ms, wait_ms FROM reserve_source_send($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)',
    [
      type,
      day,
      config.dailyLimit ?? null,
      price,
      options.account ?? null,
      count,
      windowMs,
      windowMs / count,
      SEND_BURST_MS,
      SEND_LEAD_MS,
    ],
  );
  // Date.now() is rounded down to the ms: one more keeps the sample at most the true lead. The same
  // clock as the punctual thread's (lib/outbound/punctual-request.ts).
  const arrivedAtMs = Date.now() + 1;
  const { outcome, send_at_ms, wait_ms } = rows[0]!;
  if (outcome === 'paused') {
    return { pausedMs: wait_ms };
  }
  if (outcome === 'daily_limit') {
    return DAILY_LIMIT_REACHED;
  }
  databaseClock.note(send_at_ms! - wait_ms, arrivedAtMs);
  return { sendAtMs: send_at_ms!, dueAtMs: databaseClock.toLocal(send_at_ms!), day, price };
}

/**
 * A turn not used (its time passed before the request could go): the request and its price come
 * off its day's count, as nothing was sent or paid. Its booked time stays taken: the window only
 * ever holds fewer sends than it allows, never more.
 */
export async function giveBackRequest(db: Queryable, type: SourceType, turn: SendTurn): Promise<void> {
  await db.query(
    `UPDATE source_request_days SET requests = requests - 1, spend = spend - $3
      WHERE source_type = $1 AND day = $2::date AND requests > 0`,
    [type, turn.day, turn.price],
  );
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
