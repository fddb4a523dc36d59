import { buildApp } from './app.ts';
import { loadConfig } from './config/env.ts';
import { simulatorEnvLine } from './config/source-providers.ts';
import { openDatabase } from './db/database.ts';
import { StartupError } from './db/embedded.ts';
import { openEveryConnection } from './db/pool.ts';
import { DEMO_ACCOUNTS, seedDemo } from './demo/demo-seed.ts';

type Database = Awaited<ReturnType<typeof openDatabase>>;
let database: Database | undefined;
let app: Awaited<ReturnType<typeof buildApp>> | undefined;
let stopping: Promise<void> | undefined;

/**
 * The one ordered shutdown: stop taking requests, stop the job consumers (running jobs finish or are
 * released for a retry), close the pool, and only then stop the embedded PostgreSQL.
 */
function shutdown(reason: string, code = 0): Promise<void> {
  stopping ??= (async () => {
    console.log(`${reason}: shutting down`);
    const timer = setTimeout(() => {
      console.error('Shutdown took longer than 30 s: exiting');
      process.exit(1);
    }, 30_000);
    timer.unref();
    try {
      await app?.close();
    } catch (error) {
      console.error(error);
      code ||= 1;
    }
    try {
      await database?.stop();
    } catch (error) {
      console.error(error);
      code ||= 1;
    }
    process.exit(code);
  })();
  return stopping;
}

/** Start-up failure: a problem the operator must fix is one sentence; anything else keeps its stack. */
function startupFailed(error: unknown): Promise<void> {
  console.error(error instanceof StartupError ? error.message : error);
  return shutdown('startup failed', 1);
}

// Registered before anything starts, so a signal during start-up also stops what has started; kept
// (not `once`), so that a second signal (Ctrl-C twice, a supervisor and its group) cannot cut the
// ordered shutdown short and leave the embedded PostgreSQL running.
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

try {
  database = await openDatabase(config, (message) => console.log(message));
  if (!stopping) {
    app = await buildApp({ config, connectionString: database.connectionString });
    if (config.demoData) {
      const demo = await seedDemo(app.db, { config, queue: app.queue, mailer: app.mailer, log: app.log });
      if (demo.historySeconds !== null) {
        console.log(
          `Demo organisation created with a month of history in ${demo.historySeconds.toFixed(1)} s`,
        );
      }
    }
    await openEveryConnection(app.db);
    await app.listen({ host: config.host, port: config.port });
  }
} catch (error) {
  await startupFailed(error);
}

if (app && !stopping) {
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${port}`;
  console.log(`
Pledgewatch is running: ${url}
API documentation:      ${url}/api/docs
Database:               ${database?.embedded ? `embedded PostgreSQL (${config.dataDir}/postgres)` : 'DATABASE_URL'}
${
  config.demoData
    ? `Demo sign-in:
${DEMO_ACCOUNTS.map((account) => `  ${account.role.padEnd(8)} ${account.email} / ${account.password}`).join('\n')}${
  Object.keys(config.remoteSources).length === 0
    ? `
Sources are the demo datasets. To watch them through the providers' formats instead, run
\`npm run providers\` (a local simulator) and start with:
  ${simulatorEnvLine()} npm start`
    : ''
}`
    : ''
}`);
}
