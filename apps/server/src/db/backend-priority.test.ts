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

/** A new job connection's backend as the pool hands the connection out: its priority and parallelism. */
async function jobBackend(nice: number) {
  const pool = createPool(connectionString, 1, 'priority-test', {
    onConnect: jobBackendPriority(nice, { info: () => {} }),
  });
  pools.push(pool);
  const client = await pool.connect();
  try {
    // Already set, not beside the first query: the hook is done before the pool hands it out.
    const priority = getPriority((client as unknown as { processID: number }).processID);
    const { rows } = await client.query<{ query: string; maintenance: string }>(
      `SELECT current_setting('max_parallel_workers_per_gather') AS query,
              current_setting('max_parallel_maintenance_workers') AS maintenance`,
    );
    return { priority, parallel: rows[0]! };
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
      expect((await jobBackend(10)).priority).toBe(10);
      expect((await jobBackend(0)).priority).toBe(0);
    },
  );

  // Parallel helpers are the postmaster's children at its priority: a niced job would get its
  // share of the cores back through them.
  it.runIf(process.getuid?.() === 0)(
    'keeps a niced job connection from starting parallel helpers at the normal priority',
    async () => {
      expect((await jobBackend(10)).parallel).toEqual({ query: '0', maintenance: '0' });
      const normal = (await jobBackend(0)).parallel;
      expect(Number(normal.query)).toBeGreaterThan(0);
      expect(Number(normal.maintenance)).toBeGreaterThan(0);
    },
  );

  it('recognises only PostgreSQL processes', () => {
    expect(isPostgresProcess(process.pid)).toBe(false);
    expect(isPostgresProcess(2 ** 30)).toBe(false);
  });
});
