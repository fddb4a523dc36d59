import { getPriority } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/env.ts';
import { buildTestApp } from '../testing/test-app.ts';
import { isPostgresProcess, lowerJobBackendPriority } from './backend-priority.ts';
import { createPool } from './pool.ts';

const { connectionString } = await buildTestApp();
const pools: ReturnType<typeof createPool>[] = [];
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
});

async function backendNice(nice: number): Promise<number> {
  const pool = createPool(connectionString, 1, 'priority-test');
  pools.push(pool);
  lowerJobBackendPriority(pool, nice, { info: () => {} });
  const { rows } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const pid = rows[0]!.pid;
  // The priority is set beside the first query; give it a moment.
  for (let i = 0; i < 40 && getPriority(pid) !== nice; i++) {
    await sleep(50);
  }
  return getPriority(pid);
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
