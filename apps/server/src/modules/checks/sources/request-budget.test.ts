import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../testing/test-app.ts';
import {
  busiestSecond,
  countRequest,
  listRequestTotals,
  requestsLeftToday,
  takeRequest,
} from './request-budget.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../../../../..');
const nodeBinary = existsSync(path.join(repoRoot, 'node_modules/.bin/node'))
  ? path.join(repoRoot, 'node_modules/.bin/node')
  : process.execPath;

const { app, connectionString } = await buildTestApp();

/** Send times of `count` requests taken by a separate OS process, `concurrency` at a time. */
function takeInProcess(type: string, rate: number, count: number, concurrency: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      nodeBinary,
      [
        path.join(repoRoot, 'apps/server/src/modules/checks/testing/request-budget.child.ts'),
        connectionString,
        type,
        String(rate),
        String(count),
        String(concurrency),
      ],
      { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`exit ${code}`))));
  });
}

describe('the rate limit of a source', () => {
  it('holds across two processes together: never more than the limit in any second, and reached', async () => {
    const rate = 20;
    const [first, second] = await Promise.all([
      takeInProcess('wanted', rate, 40, 8),
      takeInProcess('wanted', rate, 40, 8),
    ]);
    const all = [...first!, ...second!].sort((a, b) => a - b);
    expect(all).toHaveLength(80);
    // Each process alone paced at 20/s would have sent 40 in 2 s: together 40 in any second.
    expect(busiestSecond(all)).toBeLessThanOrEqual(rate);
    // And the limit is used: 80 requests at 20/s take about 4 s (slots a little apart, see
    // SLOT_TOLERANCE_MS), never much longer.
    const span = (all.at(-1)! - all[0]!) / 1000;
    expect(span).toBeGreaterThanOrEqual(79 / rate - 0.05);
    // (Generous: on a loaded machine a late wake gives its slot up rather than crowd the next second.)
    expect(span).toBeLessThan((79 / rate) * 2);
  });

  it('holds across two pools of one process too', async () => {
    const { createPool } = await import('../../../db/pool.ts');
    const pools = [createPool(connectionString, 4), createPool(connectionString, 4)];
    const sent: number[] = [];
    await Promise.all(
      pools.flatMap((pool) =>
        Array.from({ length: 6 }, async () => {
          for (let i = 0; i < 5; i++) {
            await takeRequest(pool, 'restrictions', { rateLimit: 15 });
            sent.push(Date.now());
          }
        }),
      ),
    );
    await Promise.all(pools.map((pool) => pool.end()));
    expect(sent).toHaveLength(60);
    expect(busiestSecond(sent)).toBeLessThanOrEqual(15);
  });
});

describe('the daily limit and the price of a source', () => {
  it('counts requests and spend per Moscow day, refuses past the limit, and starts again the next day', async () => {
    const config = { rateLimit: 1000, dailyLimit: 3, price: 2.5 };
    // 23:59 in Moscow on 10 March, then 00:01 on 11 March.
    const evening = new Date('2026-03-10T20:59:00Z');
    const morning = new Date('2026-03-10T21:01:00Z');
    const taken = [];
    for (let i = 0; i < 5; i++) {
      taken.push(await takeRequest(app.db, 'accidents', config, { now: evening }));
    }
    expect(taken).toEqual(['ok', 'ok', 'ok', 'daily_limit', 'daily_limit']);
    expect(await requestsLeftToday(app.db, 'accidents', 3, evening)).toBe(0);
    expect(await requestsLeftToday(app.db, 'accidents', 3, morning)).toBe(3);
    expect(await takeRequest(app.db, 'accidents', config, { now: morning })).toBe('ok');

    const totals = await listRequestTotals(app.db, morning);
    expect(totals.find((row) => row.source_type === 'accidents')).toEqual({
      source_type: 'accidents',
      requests_today: 1,
      spend_today: '2.50',
      // Both days are in March: 4 requests of 2.50.
      spend_month: '10.00',
    });
  });

  it('a limit of 0 takes nothing; no limit takes everything', async () => {
    expect(await countRequest(app.db, 'registration', { dailyLimit: 0 })).toBe(false);
    for (let i = 0; i < 5; i++) {
      expect(await countRequest(app.db, 'registration', {})).toBe(true);
    }
    expect(await requestsLeftToday(app.db, 'registration', undefined)).toBeNull();
  });
});
