import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type { PgBoss, Queue } from 'pg-boss';
import type { z } from 'zod';
import type { AppConfig } from '../config/env.ts';
import type { Queryable } from '../db/pool.ts';
import type { Mailer } from '../lib/mailer.ts';
import type { PhaseTimings } from '../lib/phase-timings.ts';

export interface JobContext {
  db: pg.Pool;
  config: AppConfig;
  mailer: Mailer;
  queue: JobQueue;
  log: FastifyBaseLogger;
  /** Time per phase of the work, for a benchmark that passes a sink to buildApp; usually absent. */
  timings?: PhaseTimings;
}

export interface JobRun<T> {
  id: string;
  data: T;
  /** How many times this job has been retried before this attempt. */
  retryCount: number;
  retryLimit: number;
}

/**
 * What a sender needs to enqueue a job: its queue name and payload schema. A service enqueues through
 * this and never imports the job's definition, whose handler usually calls back into that service.
 */
export interface JobMessage<T = unknown> {
  name: string;
  payload: z.ZodType<T>;
}

export const defineJobMessage = <T>(message: JobMessage<T>): JobMessage<T> => message;

/** Where jobs are consumed: the app process beside the API (WORKERS=true) or `npm run worker`. */
export type JobHost = 'app' | 'worker';

/** One kind of background work: its queue name, payload schema, retry policy and handler. */
export interface JobDefinition<T = unknown> extends JobMessage<T> {
  queue?: Omit<Queue, 'name'>;
  /** Cron expression and time zone for recurring jobs. */
  cron?: { expression: string; tz: string };
  /** Jobs fetched per handler call; the handler still gets them one at a time. */
  batchSize?: number;
  /**
   * Consumer tuning: `localConcurrency` loops per process (or a function of the configuration and the
   * kind of process: the app, which also answers the API, or a job-only `npm run worker`);
   * `burstWhenBatchFull` fetches again at once while fetches come back full (with batchSize > 1)
   * instead of waiting for the next poll.
   */
  work?: {
    localConcurrency?: number | ((config: AppConfig, host: JobHost) => number);
    burstWhenBatchFull?: boolean;
  };
  /**
   * Database-heavy work (a check batch, an upload's validation or import): in the app process these
   * share APP_HEAVY_JOBS slots across their queues, so background work leaves the API a core.
   */
  heavy?: boolean;
  handler: (job: JobRun<T>, context: JobContext) => Promise<void>;
  /**
   * Runs instead of the handler when the job is quarantined: two earlier runs of it ended their
   * process (a crash, out of memory, a kill), so it is never run again. Leaves what the job was for
   * in a state the user sees (e.g. the upload failed with a Russian reason).
   */
  quarantine?: (job: JobRun<T>, context: JobContext) => Promise<void>;
}

// biome-ignore lint/suspicious/noExplicitAny: the registry holds jobs of every payload type.
export type AnyJobDefinition = JobDefinition<any>;

export const defineJob = <T>(definition: JobDefinition<T>): JobDefinition<T> => definition;

export interface SendJobOptions {
  /** Enqueue inside this transaction, so the job exists only if the transaction commits. */
  db?: Queryable;
  singletonKey?: string;
  startAfter?: number | Date;
}

export interface JobQueue {
  send<T>(message: JobMessage<T>, payload: T, options?: SendJobOptions): Promise<string | null>;
  /** Enqueues many jobs of one kind in one insert (inside `options.db` when given). */
  sendMany<T>(message: JobMessage<T>, payloads: T[], options?: Pick<SendJobOptions, 'db'>): Promise<void>;
  boss: PgBoss;
}
