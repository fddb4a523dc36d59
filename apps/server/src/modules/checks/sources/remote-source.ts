import { type Finding, findingSchema, SOURCE_TYPES, type SourceType } from '@pledgewatch/contract';
import { z } from 'zod';
import type { RemoteSourceConfig } from '../../../config/env.ts';
import type { Queryable } from '../../../db/pool.ts';
import { JSON_SERVICE_PROVIDER, recordSourceCacheHits, recordSourceCall } from '../../../lib/metrics.ts';
import {
  OutboundError,
  type OutboundResponse,
  outboundRequest,
} from '../../../lib/outbound/outbound-request.ts';
import { sourceAnswersFor } from './dataset-source.ts';
import { DAILY_LIMIT_REACHED, takeRequest } from './request-budget.ts';
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

const remoteAnswerSchema = z.object({ findings: z.array(findingSchema) });

/** Largest answer read from a remote source for one identifier. */
const REMOTE_ANSWER_MAX_BYTES = 5 * 1024 * 1024;

class RemoteFailure extends Error {
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
  constructor(message: string, retryable: boolean, retryAfterMs?: number) {
    super(message);
    this.retryable = retryable;
    this.retryAfterMs = retryAfterMs;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A source served by an HTTP JSON service:
 * `GET {url}/check?kind=vin|document&identifier=…[&documentType=…]` with `Authorization: Bearer {token}`
 * answers `{"findings": [{"key": "…", "payload": {…}}]}`. Timeouts, 429 and 5xx are retried with
 * exponential back-off; answers are cached for the type's TTL; failures are never cached.
 */
export function createRemoteSource(
  type: SourceType,
  config: RemoteSourceConfig,
  deps: { db: Queryable },
): SourceAdapter {
  const ttl = config.cacheTtl ?? DEFAULT_CACHE_TTL[type];

  async function requestOnce(item: CheckItem): Promise<Finding[]> {
    const url = new URL(`${config.url}/check`);
    url.searchParams.set('kind', item.kind);
    url.searchParams.set('identifier', item.identifier);
    if (item.documentType) {
      url.searchParams.set('documentType', item.documentType);
    }
    if ((await takeRequest(deps.db, type, config)) === DAILY_LIMIT_REACHED) {
      throw new RemoteFailure('Дневной лимит запросов к источнику исчерпан', false);
    }
    const timeoutText = `Источник не ответил за ${(config.timeoutMs / 1000).toLocaleString('ru-RU')} с`;
    let response: OutboundResponse;
    try {
      response = await outboundRequest(url.toString(), {
        headers: {
          accept: 'application/json',
          ...(config.token ? { authorization: `Bearer ${config.token}` } : {}),
        },
        timeoutMs: config.timeoutMs,
        // SOURCE_<TYPE>_URL is the operator's, often an internal service: no address check. The
        // tenant gives only the identifier, which goes into the query string, never the host.
        policy: { allowedRanges: [], trusted: true },
        readBody: true,
        maxResponseBytes: REMOTE_ANSWER_MAX_BYTES,
      });
    } catch (error) {
      const kind = error instanceof OutboundError ? error.kind : 'connect';
      if (kind === 'timeout') {
        throw new RemoteFailure(timeoutText, true);
      }
      if (kind === 'too_large') {
        throw new RemoteFailure('Источник вернул слишком большой ответ', false);
      }
      if (kind === 'invalid') {
        throw new RemoteFailure('Адрес источника задан неверно', false);
      }
      throw new RemoteFailure('Источник недоступен (нет соединения)', true);
    }
    if (response.status === 429) {
      const retryAfter = Number(response.headers['retry-after']);
      throw new RemoteFailure(
        'Источник ограничил частоту запросов (429)',
        true,
        Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined,
      );
    }
    if (response.status < 200 || response.status >= 300) {
      // Redirects are not followed either: a 3xx is an error like any other.
      throw new RemoteFailure(`Источник ответил ошибкой ${response.status}`, response.status >= 500);
    }
    let body: unknown;
    try {
      body = JSON.parse(response.body.toString('utf8'));
    } catch {
      throw new RemoteFailure('Источник вернул некорректный ответ (не JSON)', false);
    }
    const parsed = remoteAnswerSchema.safeParse(body);
    if (!parsed.success) {
      throw new RemoteFailure('Источник вернул ответ неожиданного формата', false);
    }
    return parsed.data.findings.toSorted((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  const metricLabels = { source: type, provider: JSON_SERVICE_PROVIDER };

  async function fetchItem(item: CheckItem): Promise<ItemAnswer> {
    const started = performance.now();
    const answer = await askWithRetries(item);
    const ok = answer.status === 'ok';
    recordSourceCall(metricLabels, {
      answered: ok ? 1 : 0,
      failed: ok ? 0 : 1,
      seconds: (performance.now() - started) / 1000,
    });
    return answer;
  }

  async function askWithRetries(item: CheckItem): Promise<ItemAnswer> {
    for (let attempt = 0; ; attempt++) {
      try {
        return { status: 'ok', findings: await requestOnce(item) };
      } catch (error) {
        const failure =
          error instanceof RemoteFailure ? error : new RemoteFailure('Источник недоступен', true);
        if (!failure.retryable || attempt >= config.retries) {
          const tries = attempt + 1;
          return {
            status: 'failed',
            findings: [],
            error: tries > 1 ? `${failure.message} (попыток: ${tries})` : failure.message,
          };
        }
        const backoff = Math.min(5000, 200 * 2 ** attempt) * (0.75 + Math.random() / 2);
        await sleep(Math.min(10_000, failure.retryAfterMs ?? backoff));
      }
    }
  }

  async function checkBatch(items: CheckItem[]): Promise<ItemAnswer[]> {
    const keyOf = (item: CheckItem) => `${item.documentType ?? ''}|${item.identifier}`;
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
    // A few requests in flight; the rate limit sets the pace.
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(4, misses.length) }, async () => {
        while (next < misses.length) {
          const index = misses[next++]!;
          answers[index] = await fetchItem(items[index]!);
        }
      }),
    );
    await putCachedAnswers(
      deps.db,
      type,
      ttl,
      misses
        .filter((index) => answers[index]!.status === 'ok' && !answers[index]!.fromCache)
        .map((index) => ({
          documentType: items[index]!.documentType ?? '',
          identifier: items[index]!.identifier,
          findings: answers[index]!.findings,
        })),
    );
    return answers;
  }

  return {
    type,
    adapter: 'remote',
    itemKinds: SOURCE_TYPES[type].itemKinds,
    answersFor: (item) => sourceAnswersFor(type, item),
    datasetVersion: async () => null,
    check: async (item) => (await checkBatch([item]))[0]!,
    checkBatch,
  };
}
