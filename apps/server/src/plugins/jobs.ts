import fp from 'fastify-plugin';
import type { AppConfig } from '../config/env.ts';
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
    boss.on('error', (error) => fastify.log.error({ err: error }, 'job queue error'));
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
    fastify.addHook('onClose', async () => {
      await boss.stop({ graceful: true, timeout: 10_000 });
    });
  },
  { name: 'jobs', dependencies: ['db', 'mailer'] },
);
