import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type { PgBoss, Queue } from 'pg-boss';
import type { z } from 'zod';
import type { AppConfig } from '../config/env.ts';
import type { Queryable } from '../db/pool.ts';
import type { Mailer } from '../plugins/mailer.ts';

export interface JobContext {
  db: pg.Pool;
  config: AppConfig;
  mailer: Mailer;
  queue: JobQueue;
  log: FastifyBaseLogger;
}

export interface JobRun<T> {
  id: string;
  data: T;
  /** How many times this job has been retried before this attempt. */
  retryCount: number;
  retryLimit: number;
}

/** One kind of background work: its queue name, payload schema, retry policy and handler. */
export interface JobDefinition<T = unknown> {
  name: string;
  payload: z.ZodType<T>;
  queue?: Omit<Queue, 'name'>;
  /** Cron expression and time zone for recurring jobs. */
  cron?: { expression: string; tz: string };
  /** Jobs fetched per handler call; the handler still gets them one at a time. */
  batchSize?: number;
  /**
   * Consumer tuning: `localConcurrency` loops per process; `burstWhenBatchFull` fetches again at once
   * while fetches come back full (with batchSize > 1) instead of waiting for the next poll.
   */
  work?: { localConcurrency?: number; burstWhenBatchFull?: boolean };
  handler: (job: JobRun<T>, context: JobContext) => Promise<void>;
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
  send<T>(definition: JobDefinition<T>, payload: T, options?: SendJobOptions): Promise<string | null>;
  boss: PgBoss;
}
