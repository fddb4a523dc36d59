import { type Finding, SOURCE_TYPES, type SourceType } from '@pledgewatch/contract';
import type { RemoteSourceConfig } from '../../../config/env.ts';
import type { Queryable } from '../../../db/pool.ts';
import { recordSourceCacheHits, recordSourceCall, recordSourceMissedTurn } from '../../../lib/metrics.ts';
import { startPunctualThread } from '../../../lib/outbound/punctual-request.ts';
import { sourceAnswersFor } from './dataset-source.ts';
import type { Provider, ProviderContext } from './providers/provider.ts';
import { providerByName } from './providers/provider-catalogue.ts';
import { failureText, ProviderFailure } from './providers/provider-failure.ts';
import { sendProviderRequest } from './providers/provider-http.ts';
import {
  accountKey,
  DAILY_LIMIT_REACHED,
  giveBackRequest,
  pauseAccount,
  type SendTurn,
  takeRequest,
} from './request-budget.ts';
import type { CheckItem, ItemAnswer, SourceAdapter } from './source-adapter.ts';
import { getCachedAnswers, putCachedAnswers } from './sources.queries.ts';

/** How long a remote answer is reused when SOURCE_<TYPE>_CACHE_TTL is not set, in seconds. */
export const DEFAULT_CACHE_TTL: Readonly<Record<SourceType, number>> = {
  pledges: 3600,
  wanted: 3600,
  restrictions: 6 * 3600,
  registration: 24 * 3600,
  accidents: 24 * 3600,
  bankruptcy: 12 * 3600,
  enforcement: 6 * 3600,
  passport: 24 * 3600,
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The longest a request waits for a provider's Retry-After. A longer one fails the item at once
 * (rate limited, asked again by the next run) rather than asking before the provider allows it.
 */
export const RETRY_AFTER_MAX_WAIT_MS = 10_000;

/**
 * The Retry-After pause of a provider account (address and token), as one source's requests see it.
 * It is kept in PostgreSQL (source_pauses, request-budget.ts), not in the process: a 429 to one
 * worker must stop the app and the other workers too, as each refused request is counted and may be
 * paid. It costs no round trip per request: the pause is read in the statement that books the
 * request (takeRequest), which every request makes anyway — cheaper than a local view refreshed now
 * and then, and never stale. The one extra write is made per 429 with Retry-After. A request already
 * booked when another process is refused is sent at its time: the bookings ahead are the requests
 * in flight spread at the rate (under a second at the default concurrency and 200 ms answers).
 */
function accountPause(db: Queryable, type: SourceType, config: RemoteSourceConfig) {
  const account = accountKey(config.url, config.token);
  /** Failures made here for a pause already recorded: not written again. */
  const ours = new WeakSet<ProviderFailure>();
  return {
    /**
     * Before every request to the provider (each retry, each poll): waits out a pause (one longer
     * than the most we wait for fails the request unsent), then takes the budget: the request's turn.
     */
    async takeTurn(): Promise<SendTurn> {
      for (;;) {
        const taken = await takeRequest(db, type, config, { account });
        if (taken === DAILY_LIMIT_REACHED) {
          throw new ProviderFailure('daily_limit');
        }
        if ('sendAtMs' in taken) {
          return taken;
        }
        if (taken.pausedMs > RETRY_AFTER_MAX_WAIT_MS) {
          const failure = new ProviderFailure('rate_limited', 'Retry-After', {
            retryAfterMs: taken.pausedMs,
          });
          ours.add(failure);
          throw failure;
        }
        await sleep(Math.max(1, Math.ceil(taken.pausedMs)));
      }
    },
    /** A turn whose time passed before its request could go: nothing was sent or paid. */
    missedTurn: async (turn: SendTurn) => {
      recordSourceMissedTurn(type);
      await giveBackRequest(db, type, turn);
    },
    /** After a failure: pauses the account for its Retry-After; too long to wait, the item's failure. */
    async note(failure: ProviderFailure): Promise<ProviderFailure | null> {
      const waitMs = failure.retryAfterMs;
      if (waitMs === undefined) {
        return null;
      }
      if (!ours.has(failure)) {
        await pauseAccount(db, account, waitMs);
      }
      return waitMs > RETRY_AFTER_MAX_WAIT_MS
        ? new ProviderFailure(
            'rate_limited',
            `${failure.detail ? `${failure.detail}, ` : ''}повтор не раньше чем через ${Math.ceil(waitMs / 1000)} с`,
          )
        : null;
    },
  };
}

/**
 * Requests in flight per batch when SOURCE_<TYPE>_CONCURRENCY is not set: a request holds its place
 * for its booking's lead (SEND_LEAD_MS) and its answer, so two batches keep the rate limit busy at
 * answers of up to ~300 ms (rate × (lead + latency) in flight in all). Two, because a run's last
 * minutes have few batches left to share out (the providers benchmark: at 20 a batch, a run fell to
 * 70 % of the limit once two batches were left).
 */
export const defaultConcurrency = (rateLimit: number) => Math.min(64, Math.max(4, Math.ceil(rateLimit / 5)));

/** The cache key of an item, as getCachedAnswers returns it. */
const keyOf = (item: CheckItem) => `${item.documentType ?? ''}|${item.identifier}`;

/**
 * A source served by a provider over HTTP (SOURCE_<TYPE>_PROVIDER, providers/): the provider builds
 * its requests and reads its answers into findings; this adds what every provider shares. Answers
 * are cached per identifier for the type's TTL, shared by every organisation (pay once per TTL);
 * failures are never cached. Rate-limited, unavailable and timed-out requests are retried with
 * exponential back-off, honouring Retry-After; every failure ends as a `failed` answer whose error is
 * the vocabulary's Russian reason (providers/provider-failure.ts), never as «nothing found».
 */
export function createRemoteSource(
  type: SourceType,
  config: RemoteSourceConfig,
  deps: {
    db: Queryable;
    /** Every remote source's configuration: answers a provider gives for other types are cached for those it also serves. */
    remoteSources?: Partial<Record<SourceType, RemoteSourceConfig>>;
  },
): SourceAdapter {
  const provider: Provider = providerByName(config.provider);
  // Loaded before the first request is booked (punctual-request.ts).
  void startPunctualThread();
  const ttl = config.cacheTtl ?? DEFAULT_CACHE_TTL[type];
  const pause = accountPause(deps.db, type, config);
  const { takeTurn, missedTurn } = pause;
  /** The context of the provider's requests: each takes its turn (pause, daily limit, rate) first. */
  const ctx: ProviderContext = {
    type,
    config,
    send: (request) => sendProviderRequest({ type, config, takeTurn, missedTurn }, request),
    sleep,
    now: Date.now,
  };
  /** Other types this provider serves at the same address, to cache what one answer says about them. */
  const siblings = Object.entries(deps.remoteSources ?? {}).filter(
    ([other, sibling]) =>
      other !== type && sibling?.provider === config.provider && sibling.url === config.url,
  ) as [SourceType, RemoteSourceConfig][];

  const metricLabels = { source: type, provider: provider.name };

  async function fetchItem(
    item: CheckItem,
  ): Promise<{ answer: ItemAnswer; related?: Partial<Record<SourceType, Finding[]>> }> {
    const started = performance.now();
    const fetched = await askWithRetries(item);
    if (fetched.answer.status === 'deferred') {
      // Not asked (the day's limit): neither an answer nor a failure, nor a call's latency.
      return fetched;
    }
    const ok = fetched.answer.status === 'ok';
    recordSourceCall(metricLabels, {
      answered: ok ? 1 : 0,
      failed: fetched.answer.status === 'failed' ? 1 : 0,
      seconds: (performance.now() - started) / 1000,
    });
    return fetched;
  }

  const failedAnswer = (failure: ProviderFailure, attempts: number): ItemAnswer => ({
    status: 'failed',
    findings: [],
    error: failureText(provider.name, failure, attempts),
  });

  async function askWithRetries(
    item: CheckItem,
  ): Promise<{ answer: ItemAnswer; related?: Partial<Record<SourceType, Finding[]>> }> {
    /** The provider's failure of the attempt before, if there was one. */
    let previous: ProviderFailure | null = null;
    for (let attempt = 0; ; attempt++) {
      try {
        const result = await provider.fetch(ctx, item);
        return { answer: { status: 'ok', findings: result.findings }, related: result.related };
      } catch (error) {
        const failure =
          error instanceof ProviderFailure
            ? error
            : new ProviderFailure('unreadable', 'ошибка разбора ответа');
        if (failure.kind === 'daily_limit') {
          // Ours, not the provider's: the item is not answered today, so a regular run leaves it due
          // for tomorrow — also when some of its requests were sent (a report made but not read, a
          // sign-in): the source did not fail, and its health, alerts and freshness must not say so.
          // Only a retry of the provider's own failure stays that failure.
          return {
            answer: previous ? failedAnswer(previous, attempt) : { status: 'deferred', findings: [] },
          };
        }
        // A Retry-After too long to wait for ends the item now.
        const tooLong = await pause.note(failure);
        if (tooLong || !failure.retryable || attempt >= config.retries) {
          return { answer: failedAnswer(tooLong ?? failure, attempt + 1) };
        }
        previous = failure;
        const backoff = Math.min(5000, 200 * 2 ** attempt) * (0.75 + Math.random() / 2);
        // Retry-After (at most RETRY_AFTER_MAX_WAIT_MS, see above) is also waited for in takeTurn.
        await sleep(failure.retryAfterMs ?? backoff);
      }
    }
  }

  async function checkBatch(items: CheckItem[]): Promise<ItemAnswer[]> {
    const cached = await getCachedAnswers(
      deps.db,
      type,
      items.map((item) => ({ documentType: item.documentType ?? '', identifier: item.identifier })),
    );
    const answers: ItemAnswer[] = new Array(items.length);
    const misses: number[] = [];
    items.forEach((item, index) => {
      const hit = cached.get(keyOf(item));
      if (hit) {
        answers[index] = { status: 'ok', findings: hit, fromCache: true };
      } else {
        misses.push(index);
      }
    });
    recordSourceCacheHits(metricLabels, items.length - misses.length);
    const related = new Map<
      SourceType,
      { documentType: string; identifier: string; findings: Finding[] }[]
    >();
    // Requests in flight; the rate limit (request-budget.ts, all processes) sets the pace. Once the
    // day's limit is spent the rest of the batch is not asked.
    let next = 0;
    let spent = false;
    const inFlight = Math.min(config.concurrency ?? defaultConcurrency(config.rateLimit), misses.length);
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (next < misses.length) {
          const index = misses[next++]!;
          const item = items[index]!;
          if (spent) {
            answers[index] = { status: 'deferred', findings: [] };
            continue;
          }
          const fetched = await fetchItem(item);
          answers[index] = fetched.answer;
          spent ||= fetched.answer.status === 'deferred';
          for (const [other] of siblings) {
            const findings = fetched.related?.[other];
            if (findings) {
              const list = related.get(other) ?? [];
              list.push({ documentType: item.documentType ?? '', identifier: item.identifier, findings });
              related.set(other, list);
            }
          }
        }
      }),
    );
    await putCachedAnswers(
      deps.db,
      type,
      ttl,
      misses
        .filter((index) => answers[index]!.status === 'ok')
        .map((index) => ({
          documentType: items[index]!.documentType ?? '',
          identifier: items[index]!.identifier,
          findings: answers[index]!.findings,
        })),
    );
    for (const [other, sibling] of siblings) {
      const list = related.get(other);
      if (list) {
        await putCachedAnswers(deps.db, other, sibling.cacheTtl ?? DEFAULT_CACHE_TTL[other], list);
      }
    }
    return answers;
  }

  return {
    type,
    adapter: 'remote',
    provider: provider.name,
    itemKinds: SOURCE_TYPES[type].itemKinds,
    documentTypes: provider.documentTypes,
    answersFor: (item) =>
      sourceAnswersFor(type, item) &&
      (item.kind !== 'document' ||
        !provider.documentTypes ||
        provider.documentTypes.includes(item.documentType!)),
    datasetVersion: async () => null,
    // A single check (one-time) has no next day: a spent limit is its failure, but not the source's.
    check: async (item) => {
      const answer = (await checkBatch([item]))[0]!;
      return answer.status === 'deferred'
        ? {
            status: 'failed',
            findings: [],
            error: failureText(provider.name, new ProviderFailure('daily_limit'), 1),
            notAsked: true,
          }
        : answer;
    },
    checkBatch,
  };
}
