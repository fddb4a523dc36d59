import fp from 'fastify-plugin';
import type pg from 'pg';
import type { AppConfig } from '../config/env.ts';
import { jobBackendPriority } from '../db/backend-priority.ts';
import { createPool, isConnectionError } from '../db/pool.ts';
import type { JobQueue } from '../jobs/job-definition.ts';
import { createBoss, createJobQueue, registerJobs } from '../jobs/job-registry.ts';
import type { PhaseTimings } from '../lib/phase-timings.ts';

declare module 'fastify' {
  interface FastifyInstance {
    queue: JobQueue;
    /** The job workers' own pool (JOBS_DB_POOL_SIZE), apart from the API's `db`. */
    jobsDb: pg.Pool;
    /** Whether the job queue has started and not stopped (the readiness check reads it). */
    jobsRunning: () => boolean;
  }
}

export interface JobsPluginOptions {
  connectionString: string;
  config: AppConfig;
  /** Consume jobs in this process (the default); `false` leaves them to `npm run worker`. */
  work: boolean;
  /** Handed to the jobs as their timings sink (see JobContext.timings). */
  timings?: PhaseTimings;
}

export default fp<JobsPluginOptions>(
  async (fastify, options) => {
    const boss = createBoss(options.connectionString, {
      schedule: options.work,
      superviseSeconds: options.config.jobsSuperviseSeconds,
    });
    let closing = false;
    boss.on('error', (error) => {
      // A connection dropped while the app shuts down is expected, not an error to page anyone for.
      if (closing && isConnectionError(error)) {
        fastify.log.info({ err: error }, 'job queue connection closed during shutdown');
        return;
      }
      fastify.log.error({ err: error }, 'job queue error');
    });
    let running = false;
    boss.on('stopped', () => {
      running = false;
    });
    fastify.decorate('jobsRunning', () => running);
    await boss.start();
    running = true;
    const queue = createJobQueue(boss);
    fastify.decorate('queue', queue);
    // Jobs get connections of their own: a run's batches and an upload's import hold theirs for
    // seconds, and must not leave the API's requests waiting for a free one. Opened lazily, so
    // an app with WORKERS=false never connects it.
    const jobsDb = createPool(options.connectionString, options.config.jobsDbPoolSize, 'pledgewatch-jobs', {
      onConnect: jobBackendPriority(options.config.jobsDbNice, fastify.log),
    });
    fastify.decorate('jobsDb', jobsDb);
    const registered = await registerJobs(
      boss,
      {
        db: jobsDb,
        config: options.config,
        mailer: fastify.mailer,
        queue,
        log: fastify.log,
        timings: options.timings,
      },
      { work: options.work, host: 'app' },
    );
    fastify.addHook('preClose', async () => {
      closing = true;
      running = false;
    });
    // Runs before the db plugin's pool.end (onClose hooks run in reverse order of registration):
    // no new jobs are fetched, running ones get time to finish, the rest are released for a retry.
    fastify.addHook('onClose', async () => {
      await boss.stop({ graceful: true, timeout: 10_000 });
      await registered.close();
      await jobsDb.end();
    });
  },
  { name: 'jobs', dependencies: ['db', 'mailer'] },
);
