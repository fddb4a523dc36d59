import { PgBoss } from 'pg-boss';
// Registers the upload kinds other modules provide, in every process that runs uploads.
import '../wiring.ts';
/** Every background job of the app. Modules add theirs here. */
import { pruneAuthAttemptsJob } from '../modules/auth/jobs/prune-attempts.job.ts';
import { checkBatchJob } from '../modules/checks/jobs/check-batch.job.ts';
import { planCheckRunJob } from '../modules/checks/jobs/plan-check-run.job.ts';
import { scheduledChecksJob } from '../modules/checks/jobs/scheduled-checks.job.ts';
import { deliverMailJob } from '../modules/mail/jobs/deliver-mail.job.ts';
import { deliverNotificationJob } from '../modules/notifications/jobs/deliver-notification.job.ts';
import { notificationDigestsJob } from '../modules/notifications/jobs/notification-digests.job.ts';
import { importUploadJob } from '../modules/uploads/jobs/import-upload.job.ts';
import { validateUploadJob } from '../modules/uploads/jobs/validate-upload.job.ts';
import type { AnyJobDefinition, JobContext, JobMessage, JobQueue, SendJobOptions } from './job-definition.ts';

export const JOB_DEFINITIONS: AnyJobDefinition[] = [
  deliverMailJob,
  validateUploadJob,
  importUploadJob,
  deliverNotificationJob,
  notificationDigestsJob,
  planCheckRunJob,
  checkBatchJob,
  scheduledChecksJob,
  pruneAuthAttemptsJob,
];

export const BOSS_SCHEMA = 'pgboss';

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

/** Creates every queue and schedule; registers consumers only when this process runs workers. */
export async function registerJobs(
  boss: PgBoss,
  context: JobContext,
  options: { work: boolean; definitions?: AnyJobDefinition[] },
): Promise<void> {
  const definitions = options.definitions ?? JOB_DEFINITIONS;
  for (const definition of definitions) {
    await boss.createQueue(definition.name, definition.queue);
    if (definition.cron) {
      await boss.schedule(definition.name, definition.cron.expression, null, { tz: definition.cron.tz });
    }
  }
  if (!options.work) {
    return;
  }
  for (const definition of definitions) {
    await boss.work(
      definition.name,
      {
        batchSize: definition.batchSize ?? 1,
        includeMetadata: true,
        pollingIntervalSeconds: 1,
        ...definition.work,
      },
      async (jobs) => {
        for (const job of jobs) {
          const parsed = definition.payload.safeParse(job.data ?? {});
          if (!parsed.success) {
            context.log.error(
              { job: definition.name, id: job.id, issues: parsed.error.issues },
              'bad job payload',
            );
            continue;
          }
          await definition.handler(
            { id: job.id, data: parsed.data, retryCount: job.retryCount, retryLimit: job.retryLimit },
            context,
          );
        }
      },
    );
  }
}
