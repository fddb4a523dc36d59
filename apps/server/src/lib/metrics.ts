/**
 * The process's Prometheus metrics: one registry and every named metric, with the functions the
 * rest of the code records through. `GET /metrics` (plugins/metrics.ts) serves this registry when
 * METRICS_TOKEN is set; `npm run worker` serves its own on METRICS_PORT (docs/operations.md).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Queryable } from '../db/pool.ts';

export const registry = new Registry();
// Event loop lag, heap, RSS, open handles, GC: a process's own health, free with the library.
collectDefaultMetrics({ register: registry });

/** Seconds: from a fast cached answer to a slow report or an upload's import. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const LONG_BUCKETS = [0.1, 0.5, 1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600];

export const httpRequestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP requests by method, route pattern and status code',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: DURATION_BUCKETS,
  registers: [registry],
});

/**
 * The route label for a request: the pattern it matched (`/api/v1/monitoring/items/:id`), never the
 * raw URL, whose ids and query strings would make a series per request.
 */
export function routeLabel(pattern: string | undefined): string {
  return pattern ?? 'unmatched';
}

const jobRuns = new Counter({
  name: 'pledgewatch_job_runs_total',
  help: 'Job attempts run by this process, by queue and outcome (completed, failed)',
  labelNames: ['queue', 'outcome'] as const,
  registers: [registry],
});

const jobDuration = new Histogram({
  name: 'pledgewatch_job_duration_seconds',
  help: 'Time of one job attempt in this process, by queue',
  labelNames: ['queue'] as const,
  buckets: LONG_BUCKETS,
  registers: [registry],
});

/** One job attempt ended in this process. */
export function recordJob(queue: string, outcome: 'completed' | 'failed', seconds: number): void {
  jobRuns.inc({ queue, outcome });
  jobDuration.observe({ queue }, seconds);
}

/**
 * Provider label of today's two kinds of source; a provider adapter passes its own name (e.g. the
 * provider's code) to recordSourceCall.
 */
export const DATASET_PROVIDER = 'dataset';
export const JSON_SERVICE_PROVIDER = 'json-service';

const sourceAnswers = new Counter({
  name: 'pledgewatch_source_answers_total',
  help: 'Items a source answered (found or not found), by source type and provider',
  labelNames: ['source', 'provider'] as const,
  registers: [registry],
});

const sourceFailures = new Counter({
  name: 'pledgewatch_source_failures_total',
  help: 'Items a source failed to answer (after its retries), by source type and provider',
  labelNames: ['source', 'provider'] as const,
  registers: [registry],
});

const sourceLatency = new Histogram({
  name: 'pledgewatch_source_request_duration_seconds',
  help: 'Time of one call to a source (one item of an HTTP service, one batch match of a dataset), by source type and provider',
  labelNames: ['source', 'provider'] as const,
  buckets: DURATION_BUCKETS,
  registers: [registry],
});

const sourceCacheHits = new Counter({
  name: 'pledgewatch_source_cache_hits_total',
  help: 'Items answered from the answer cache without asking the provider, by source type and provider',
  labelNames: ['source', 'provider'] as const,
  registers: [registry],
});

const sourceMissedTurns = new Counter({
  name: 'pledgewatch_source_missed_turns_total',
  help: 'Booked request turns a process could not send in time (given back and booked again), by source type',
  labelNames: ['source'] as const,
  registers: [registry],
});

/** A provider request's turn passed before its process could send it (remote-source.ts). */
export function recordSourceMissedTurn(source: string): void {
  sourceMissedTurns.inc({ source });
}

/**
 * One call to a source: how many items it answered and failed, and how long it took. Every source
 * adapter calls this once per call to its provider (an item, or a batch it asks at once).
 */
export function recordSourceCall(
  labels: { source: string; provider: string },
  call: { answered: number; failed: number; seconds: number },
): void {
  if (call.answered > 0) {
    sourceAnswers.inc(labels, call.answered);
  }
  if (call.failed > 0) {
    sourceFailures.inc(labels, call.failed);
  }
  sourceLatency.observe(labels, call.seconds);
}

/** Items a source answered from its cache, without a call to the provider. */
export function recordSourceCacheHits(labels: { source: string; provider: string }, items: number): void {
  if (items > 0) {
    sourceCacheHits.inc(labels, items);
  }
}

const checkRunDuration = new Histogram({
  name: 'pledgewatch_check_run_duration_seconds',
  help: 'Check runs from start to their last batch, by trigger (manual, scheduled) and final status',
  labelNames: ['trigger', 'status'] as const,
  buckets: LONG_BUCKETS,
  registers: [registry],
});

/** A check run finished (its last batch committed in this process). */
export function recordCheckRun(trigger: string, status: string, seconds: number): void {
  checkRunDuration.observe({ trigger, status }, seconds);
}

const uploadRows = new Counter({
  name: 'pledgewatch_upload_rows_total',
  help: 'Rows of imported uploads, by upload kind and outcome (accepted, restored, duplicate, rejected)',
  labelNames: ['kind', 'outcome'] as const,
  registers: [registry],
});

export type UploadRowCounts = { accepted: number; restored: number; duplicate: number; rejected: number };

/** An upload's import committed: its rows by what became of them. */
export function recordUploadRows(kind: string, rows: UploadRowCounts): void {
  for (const [outcome, count] of Object.entries(rows)) {
    uploadRows.inc({ kind, outcome }, count);
  }
}

const mailDeliveries = new Counter({
  name: 'pledgewatch_mail_deliveries_total',
  help: 'Mail delivery attempts, by outcome (sent, kept: no SMTP, failed)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export function recordMailDelivery(outcome: 'sent' | 'kept' | 'failed'): void {
  mailDeliveries.inc({ outcome });
}

const notificationDeliveries = new Counter({
  name: 'pledgewatch_notification_deliveries_total',
  help: 'Notification delivery attempts (webhook, Telegram, e-mail), by channel and outcome (sent, failed)',
  labelNames: ['channel', 'outcome'] as const,
  registers: [registry],
});

export function recordNotificationDelivery(channel: string, outcome: 'sent' | 'failed'): void {
  notificationDeliveries.inc({ channel, outcome });
}

/** pg-boss's job states counted per queue in its `queue` table, by its own monitor pass. */
const QUEUE_STATES = ['deferred', 'queued', 'active', 'failed'] as const;

let queueSource: { db: Queryable; schema: string } | undefined;

/**
 * Job queue depth per queue and state, read from the database at scrape time, so one process (the
 * app) reports every queue whoever consumes it. The counts are those of pg-boss's last monitor pass
 * (JOBS_SUPERVISE_SECONDS); `failed` is the failed jobs the queue still keeps.
 */
new Gauge({
  name: 'pledgewatch_job_queue_jobs',
  help: 'Jobs per queue and state (deferred, queued, active, failed), as of the queue monitor pass',
  labelNames: ['queue', 'state'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    if (!queueSource) {
      return;
    }
    const { rows } = await queueSource.db
      .query<{ name: string; deferred: number; queued: number; active: number; failed: number }>(
        `SELECT name, deferred_count AS deferred, queued_count AS queued, active_count AS active,
                failed_count AS failed
           FROM ${queueSource.schema}.queue`,
      )
      // The database away: the scrape still answers with the process's own metrics.
      .catch(() => ({ rows: [] }));
    for (const row of rows) {
      for (const state of QUEUE_STATES) {
        this.set({ queue: row.name, state }, Number(row[state]));
      }
    }
  },
});

/**
 * Where the queue gauge reads pg-boss's counts from; the returned function stops reading there (the
 * app closed), unless another source has been set since.
 */
export function setQueueMetricsSource(source: { db: Queryable; schema: string }): () => void {
  queueSource = source;
  return () => {
    if (queueSource === source) {
      queueSource = undefined;
    }
  };
}

/** Whether an Authorization header carries the metrics token, compared in constant time. */
export function hasMetricsToken(header: string | undefined, token: string): boolean {
  const match = /^Bearer (.+)$/.exec(header ?? '');
  // Digests of equal length: the comparison's time depends neither on the token nor on its length.
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(match?.[1] ?? ''), digest(token)) && match !== null;
}

/**
 * `npm run worker`'s own `GET /metrics` (METRICS_PORT, same token): a worker's job, source and
 * delivery counters live in its memory. The queue gauge is left to the app, which reads it from the
 * database, so that it is not reported once per process.
 */
export async function serveWorkerMetrics(options: {
  host: string;
  port: number;
  token: string;
}): Promise<Server> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Не найдено\n');
      return;
    }
    if (!hasMetricsToken(request.headers.authorization, options.token)) {
      response
        .writeHead(401, { 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': 'Bearer' })
        .end('Нужен заголовок Authorization: Bearer <METRICS_TOKEN>\n');
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
      () => response.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return server;
}
