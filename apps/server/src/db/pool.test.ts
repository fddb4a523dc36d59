import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../testing/test-app.ts';
import { createPool, openEveryConnection, warmConnection, withTransaction } from './pool.ts';

const { app, connectionString } = await buildTestApp();

describe('the app pool', () => {
  it('keeps every connection once opened, each readied for the app’s tables before it is handed out', async () => {
    // A pool that closed idle connections met a burst after a quiet spell with fresh backends: the
    // load benchmark's first seconds, p99 296–864 ms against 126–433 ms with kept, readied ones.
    expect(app.db.options.min).toBe(app.db.options.max);
    expect(app.db.options.onConnect).toBe(warmConnection);
    const pool = createPool(connectionString, 3, 'pool-test-warm', {
      keepOpen: true,
      onConnect: warmConnection,
    });
    try {
      await openEveryConnection(pool);
      expect([pool.totalCount, pool.idleCount]).toEqual([3, 3]);
      const { rows } = await pool.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'pool-test-warm'",
      );
      expect(rows[0]!.n).toBe(3);
    } finally {
      await pool.end();
    }
  });

  it('opens connections with JIT off (short statements whose estimates pass the JIT threshold)', async () => {
    const settings = await Promise.all(
      Array.from({ length: 3 }, async () => (await app.db.query<{ jit: string }>('SHOW jit')).rows[0]!.jit),
    );
    expect(settings).toEqual(['off', 'off', 'off']);
  });

  it("runs a transaction's reads given at once one after another, each with its own result", async () => {
    // What pg itself is handed: a query while another of the same connection still runs is what it
    // queues with a deprecation warning, and pg 9 refuses.
    const overlaps: string[] = [];
    const pgQuery = pg.Client.prototype.query;
    const running = new Map<unknown, number>();
    const watch = function (this: unknown, ...args: unknown[]) {
      const busy = running.get(this) ?? 0;
      if (busy > 0 && typeof args[0] === 'string') {
        overlaps.push(args[0]);
      }
      running.set(this, busy + 1);
      const result = (pgQuery as (...a: unknown[]) => unknown).apply(this, args);
      if (result instanceof Promise) {
        return result.finally(() => running.set(this, (running.get(this) ?? 1) - 1));
      }
      running.set(this, busy);
      return result;
    };
    pg.Client.prototype.query = watch as typeof pgQuery;
    try {
      const results = await withTransaction(app.db, (tx) =>
        Promise.all(
          [3, 1, 2].map(
            async (n) => (await tx.query<{ n: number }>(`SELECT pg_sleep(0.0${n}), ${n} AS n`)).rows[0]!.n,
          ),
        ),
      );
      expect(results).toEqual([3, 1, 2]);
      expect(overlaps).toEqual([]);
    } finally {
      pg.Client.prototype.query = pgQuery;
    }
  });
});
