import fp from 'fastify-plugin';
import type { AppConfig } from '../config/env.ts';
import { isConnectionError } from '../db/pool.ts';
import type { JobQueue } from '../jobs/job-definition.ts';
import { createBoss, createJobQueue, registerJobs } from '../jobs/job-registry.ts';
import type { PhaseTimings } from '../lib/phase-timings.ts';

declare module 'fastify' {
  interface FastifyInstance {
    queue: JobQueue;
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
    await boss.start();
    const queue = createJobQueue(boss);
    fastify.decorate('queue', queue);
    await registerJobs(
      boss,
      {
        db: fastify.db,
        config: options.config,
        mailer: fastify.mailer,
        queue,
        log: fastify.log,
        timings: options.timings,
      },
      { work: options.work },
    );
    fastify.addHook('preClose', async () => {
      closing = true;
    });
    // Runs before the db plugin's pool.end (onClose hooks run in reverse order of registration):
    // no new jobs are fetched, running ones get time to finish, the rest are released for a retry.
    fastify.addHook('onClose', async () => {
      await boss.stop({ graceful: true, timeout: 10_000 });
    });
  },
  { name: 'jobs', dependencies: ['db', 'mailer'] },
);
