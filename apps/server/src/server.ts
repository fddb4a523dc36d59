import { buildApp } from './app.ts';
import { loadConfig } from './config/env.ts';
import { openDatabase } from './db/database.ts';
import { DEMO_ACCOUNTS, seedDemo } from './demo/demo-seed.ts';

const config = loadConfig();
const database = await openDatabase(config, (message) => console.log(message));
let app: Awaited<ReturnType<typeof buildApp>> | undefined;

async function shutdown(signal: string, code = 0): Promise<void> {
  console.log(`${signal}: shutting down`);
  const timer = setTimeout(() => process.exit(1), 20_000);
  timer.unref();
  try {
    await app?.close();
  } finally {
    await database.stop();
    process.exit(code);
  }
}

try {
  app = await buildApp({ config, connectionString: database.connectionString });
  if (config.demoData) {
    await seedDemo(app.db);
  }
  await app.listen({ host: config.host, port: config.port });
} catch (error) {
  console.error(error);
  await shutdown('startup failed', 1);
}

process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));

const address = app?.server.address();
const port = typeof address === 'object' && address ? address.port : config.port;
const url = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${port}`;
console.log(`
Pledgewatch is running: ${url}
API documentation:      ${url}/api/docs
Database:               ${database.embedded ? `embedded PostgreSQL (${config.dataDir}/postgres)` : 'DATABASE_URL'}
${
  config.demoData
    ? `Demo sign-in:
${DEMO_ACCOUNTS.map((account) => `  ${account.role.padEnd(8)} ${account.email} / ${account.password}`).join('\n')}`
    : ''
}`);
