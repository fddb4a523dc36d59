import { loadConfig } from './config/env.ts';
import { jobBackendPriority } from './db/backend-priority.ts';
import { createPool, isConnectionError } from './db/pool.ts';
import { createBoss, createJobQueue, registerJobs } from './jobs/job-registry.ts';
import { createLogger } from './lib/logger.ts';
import { createMailer } from './lib/mailer.ts';
import { serveWorkerMetrics } from './lib/metrics.ts';
import { registerModules } from './wiring.ts';

/**
 * A separate job consumer (`npm run worker`) for scaling out: start the app with WORKERS=false
 * and as many of these as needed against the same DATABASE_URL.
 */
registerModules();
const config = loadConfig();
if (!config.databaseUrl) {
  console.error('npm run worker needs DATABASE_URL: the embedded database belongs to the app process.');
  process.exit(1);
}
const log = createLogger(config.logLevel);
const db = createPool(config.databaseUrl, config.jobsDbPoolSize, 'pledgewatch-jobs', {
  onConnect: jobBackendPriority(config.jobsDbNice, log),
});
const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom });
const boss = createBoss(config.databaseUrl, {
  schedule: true,
  superviseSeconds: config.jobsSuperviseSeconds,
});
let closing = false;
boss.on('error', (error) => {
  // A connection dropped while the worker shuts down is expected, not an error.
  if (closing && isConnectionError(error)) {
    log.info({ err: error }, 'job queue connection closed during shutdown');
    return;
  }
  log.error({ err: error }, 'job queue error');
});
await boss.start();
const queue = createJobQueue(boss);
const registered = await registerJobs(
  boss,
  { db, config, mailer, queue, log },
  { work: true, host: 'worker' },
);
const metricsServer =
  config.metricsToken && config.metricsPort
    ? await serveWorkerMetrics({ host: config.host, port: config.metricsPort, token: config.metricsToken })
    : undefined;
log.info({ metricsPort: metricsServer ? config.metricsPort : undefined }, 'worker started');

let stopping: Promise<void> | undefined;
/** Stops fetching, lets running jobs finish (or releases them), then closes the pool. Idempotent. */
function shutdown(): Promise<void> {
  stopping ??= (async () => {
    closing = true;
    metricsServer?.close();
    await boss.stop({ graceful: true, timeout: 20_000 });
    await registered.close();
    mailer.close();
    await db.end();
    process.exit(0);
  })();
  return stopping;
}
// Kept (not `once`): a second signal must not kill the worker in the middle of its shutdown.
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
