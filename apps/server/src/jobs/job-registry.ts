import { type JobResult, PgBoss } from 'pg-boss';
import type { AppConfig } from '../config/env.ts';
import { recordJob } from '../lib/metrics.ts';
/** Every background job of the app. Modules add theirs here. */
import { pruneAuthAttemptsJob } from '../modules/auth/index.ts';
import {
  checkBatchJob,
  dropSupersededListJob,
  passportListFetchJob,
  planCheckRunJob,
  pledgeLapseJob,
  recheckItemsJob,
  scheduledChecksJob,
  sourceAlertsJob,
  sourceImportJob,
} from '../modules/checks/index.ts';
import { deliverMailJob } from '../modules/mail/index.ts';
import { deliverNotificationJob, notificationDigestsJob } from '../modules/notifications/index.ts';
import { importUploadJob, validateUploadJob } from '../modules/uploads/index.ts';
import type {
  AnyJobDefinition,
  JobContext,
  JobHost,
  JobMessage,
  JobQueue,
  SendJobOptions,
} from './job-definition.ts';
import { type JobStarts, NO_JOB_STARTS, openJobStarts, QUARANTINE_AFTER_DEATHS } from './job-starts.ts';

export const JOB_DEFINITIONS: AnyJobDefinition[] = [
  deliverMailJob,
  validateUploadJob,
  importUploadJob,
  deliverNotificationJob,
  notificationDigestsJob,
  planCheckRunJob,
  checkBatchJob,
  recheckItemsJob,
  scheduledChecksJob,
  pruneAuthAttemptsJob,
  sourceAlertsJob,
  pledgeLapseJob,
  sourceImportJob,
  dropSupersededListJob,
  passportListFetchJob,
];

export const BOSS_SCHEMA = 'pgboss';

/**
 * Every job heartbeats unless its definition says otherwise: a worker that dies (kill -9, lost
 * machine) stops heartbeating, and the queue's supervisor retries its jobs within
 * JOBS_SUPERVISE_SECONDS plus this, instead of after the job's whole expireInSeconds (an hour for
 * an upload).
 */
export const DEFAULT_HEARTBEAT_SECONDS = 10;

/**
 * Every queue announces a new job (a transactional NOTIFY: heard once the sending transaction
 * commits) and every process's consumers of it fetch at once, in this process or a worker, instead
 * of at their next poll: a run's plan and then its batches each waited up to a poll interval.
 * Polling stays as the floor should the listening connection drop.
 */
const queueOptions = (definition: AnyJobDefinition) => ({
  heartbeatSeconds: DEFAULT_HEARTBEAT_SECONDS,
  notify: true,
  ...definition.queue,
});

/** How often an idle consumer looks for jobs when no NOTIFY woke it. */
export const POLLING_SECONDS = 1;

export function createBoss(
  connectionString: string,
  /** superviseSeconds: how soon an expired job, or one whose worker died (no heartbeat), is retried. */
  options: { schedule: boolean; superviseSeconds?: number },
): PgBoss {
  return new PgBoss({
    connectionString,
    schema: BOSS_SCHEMA,
    application_name: 'pledgewatch-jobs',
    schedule: options.schedule,
    supervise: true,
    // One dedicated connection per process listens for the queues' NOTIFY (see queueOptions).
    useListenNotify: true,
    ...(options.superviseSeconds
      ? {
          superviseIntervalSeconds: options.superviseSeconds,
          monitorIntervalSeconds: options.superviseSeconds,
        }
      : {}),
  });
}

function inTransaction(db: SendJobOptions['db']) {
  return db
    ? { executeSql: (text: string, values?: unknown[]) => db.query(text, values as unknown[]) }
    : undefined;
}

export function createJobQueue(boss: PgBoss): JobQueue {
  return {
    boss,
    send<T>(message: JobMessage<T>, payload: T, options: SendJobOptions = {}) {
      const data = message.payload.parse(payload) as object;
      return boss.send(message.name, data, {
        singletonKey: options.singletonKey,
        startAfter: options.startAfter,
        db: inTransaction(options.db),
      });
    },
    async sendMany<T>(message: JobMessage<T>, payloads: T[], options: Pick<SendJobOptions, 'db'> = {}) {
      if (payloads.length === 0) {
        return;
      }
      await boss.insert(
        message.name,
        payloads.map((payload) => ({ data: message.payload.parse(payload) as object })),
        { db: inTransaction(options.db) },
      );
    },
  };
}

/** What registerJobs leaves running in a process that consumes jobs. */
export interface RegisteredJobs {
  /** After boss.stop(): releases this process's unfinished job starts (not deaths) and its lock. */
  close(): Promise<void>;
}

/**
 * Creates every queue and schedule; registers consumers only when this process runs workers. Each
 * run of a job is recorded in job_starts (jobs/job-starts.ts): a job two of whose earlier runs ended
 * their process is quarantined (its definition's `quarantine` hook, never run again), where pg-boss
 * would retry it after the dead run's heartbeat or expiry and lose the process again.
 */
export async function registerJobs(
  boss: PgBoss,
  context: JobContext,
  options: {
    work: boolean;
    definitions?: AnyJobDefinition[];
    host?: JobHost;
    /** POLLING_SECONDS unless a test needs a poll too slow to be mistaken for a NOTIFY. */
    pollingSeconds?: number;
  },
): Promise<RegisteredJobs> {
  const definitions = options.definitions ?? JOB_DEFINITIONS;
  for (const definition of definitions) {
    const { policy: _policy, partition: _partition, ...policy } = queueOptions(definition);
    await boss.createQueue(definition.name, queueOptions(definition));
    // createQueue leaves an existing queue as it was created: apply today's retry and expiry policy.
    await boss.updateQueue(definition.name, policy);
    if (definition.cron) {
      await boss.schedule(definition.name, definition.cron.expression, null, { tz: definition.cron.tz });
    }
  }
  if (!options.work) {
    return { close: async () => {} };
  }
  // Unit tests of the consumer options register with a stand-in queue and no database.
  const starts = context.db ? await openJobStarts(context.db, context.log) : NO_JOB_STARTS;
  // Heavy jobs of every queue take turns in the app process; a worker process runs them as its
  // queues' concurrency allows.
  const heavySlots = (options.host ?? 'app') === 'app' ? createSlots(context.config.appHeavyJobs) : undefined;
  const run = (definition: AnyJobDefinition, job: Parameters<typeof runJob>[1]) =>
    definition.heavy && heavySlots
      ? heavySlots(() => runJob(definition, job, context, starts))
      : runJob(definition, job, context, starts);
  for (const definition of definitions) {
    await boss.work(
      definition.name,
      {
        batchSize: definition.batchSize ?? 1,
        includeMetadata: true,
        perJobResults: true,
        pollingIntervalSeconds: options.pollingSeconds ?? POLLING_SECONDS,
        notifyPollingIntervalSeconds: options.pollingSeconds ?? POLLING_SECONDS,
        ...workOptions(definition, context.config, options.host ?? 'app'),
      },
      // Each job of a batch is settled on its own by pg-boss from the outcome returned for it: one job
      // that throws fails (and retries) alone, the others of its batch complete. The outcomes are
      // written when the batch ends, so a worker killed mid-batch has its whole batch retried (every
      // job is fenced by job_starts and may run again).
      async (jobs): Promise<JobResult[]> => {
        const results: JobResult[] = [];
        for (const job of jobs) {
          try {
            await run(definition, job);
            results.push({ id: job.id, status: 'completed' });
          } catch (error) {
            context.log.error({ err: error, job: definition.name, id: job.id }, 'job failed');
            results.push({ id: job.id, status: 'failed', output: serializeError(error) });
          }
        }
        return results;
      },
    );
  }
  return { close: () => starts.close() };
}

/** At most `size` of the given works at a time; the others wait their turn, first come first served. */
export function createSlots(size: number): <T>(work: () => Promise<T>) => Promise<T> {
  let free = size;
  const waiting: (() => void)[] = [];
  return async (work) => {
    if (free > 0) {
      free--;
    } else {
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
    try {
      return await work();
    } finally {
      // The slot passes straight to the next in line, or is freed.
      const next = waiting.shift();
      if (next) {
        next();
      } else {
        free++;
      }
    }
  };
}

/** The definition's consumer tuning, its concurrency resolved for this process. */
export function workOptions(
  definition: AnyJobDefinition,
  config: AppConfig,
  host: JobHost,
): { localConcurrency?: number; burstWhenBatchFull?: boolean } {
  const { localConcurrency, ...rest } = definition.work ?? {};
  return {
    ...rest,
    ...(localConcurrency === undefined
      ? {}
      : {
          localConcurrency:
            typeof localConcurrency === 'function' ? localConcurrency(config, host) : localConcurrency,
        }),
  };
}

async function runJob(
  definition: AnyJobDefinition,
  job: { id: string; data: unknown; retryCount: number; retryLimit: number },
  context: JobContext,
  starts: JobStarts,
): Promise<void> {
  const parsed = definition.payload.safeParse(job.data ?? {});
  if (!parsed.success) {
    context.log.error({ job: definition.name, id: job.id, issues: parsed.error.issues }, 'bad job payload');
    return;
  }
  const run = { id: job.id, data: parsed.data, retryCount: job.retryCount, retryLimit: job.retryLimit };
  const { startId, deadEarlier } = await starts.begin(definition.name, job.id);
  if (deadEarlier >= QUARANTINE_AFTER_DEATHS) {
    // Settled here (completed for pg-boss): a third run would most likely end this process too.
    context.log.error(
      { job: definition.name, id: job.id, deadEarlier },
      'job quarantined: its earlier runs ended their process',
    );
    try {
      await definition.quarantine?.(run, context);
    } finally {
      await starts.finish(startId, 'quarantined');
    }
    return;
  }
  const started = performance.now();
  let outcome: 'done' | 'failed' = 'failed';
  try {
    await definition.handler(run, context);
    outcome = 'done';
  } finally {
    await starts.finish(startId, outcome);
    recordJob(
      definition.name,
      outcome === 'done' ? 'completed' : 'failed',
      (performance.now() - started) / 1000,
    );
  }
}

/** What pg-boss stores as the output of a failed job (as it does for a thrown error). */
function serializeError(error: unknown): object {
  return error instanceof Error
    ? { name: error.name, message: error.message, stack: error.stack }
    : { message: String(error) };
}
