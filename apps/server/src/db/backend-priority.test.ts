import { getPriority } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/env.ts';
import { buildTestApp } from '../testing/test-app.ts';
import { isPostgresProcess, jobBackendPriority } from './backend-priority.ts';
import { createPool } from './pool.ts';

const { connectionString } = await buildTestApp();
const pools: ReturnType<typeof createPool>[] = [];
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
});

/** The priority of a new job connection's backend as the pool hands the connection out. */
async function backendNice(nice: number): Promise<number> {
  const pool = createPool(connectionString, 1, 'priority-test', {
    onConnect: jobBackendPriority(nice, { info: () => {} }),
  });
  pools.push(pool);
  const client = await pool.connect();
  try {
    // Already set, not beside the first query: the hook is done before the pool hands it out.
    return getPriority((client as unknown as { processID: number }).processID);
  } finally {
    client.release();
  }
}

describe('job database connections at a lower priority', () => {
  it('defaults to nice 10, and 0 turns it off', () => {
    expect(loadConfig({}).jobsDbNice).toBe(10);
    expect(loadConfig({ JOBS_DB_NICE: '0' }).jobsDbNice).toBe(0);
    expect(() => loadConfig({ JOBS_DB_NICE: '20' })).toThrow(/JOBS_DB_NICE/);
  });

  // Renicing a PostgreSQL process owned by another user takes root (as in CI).
  it.runIf(process.getuid?.() === 0)(
    'renices the local backend of a job connection, and only that',
    async () => {
      expect(await backendNice(10)).toBe(10);
      expect(await backendNice(0)).toBe(0);
    },
  );

  it('recognises only PostgreSQL processes', () => {
    expect(isPostgresProcess(process.pid)).toBe(false);
    expect(isPostgresProcess(2 ** 30)).toBe(false);
  });
});
