import { checkEndpoints, monitoringEndpoints } from '@pledgewatch/contract';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { bearer, buildTestApp, createSignedInUser } from '../testing/test-app.ts';

// Small pools, so that holding every job connection is cheap.
const { app } = await buildTestApp({ config: { dbPoolSize: 3, jobsDbPoolSize: 2 } });

const settlesWithin = (promise: Promise<unknown>, ms: number) =>
  Promise.race([promise.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), ms))]);

describe('job workers and the API have pools of their own', () => {
  it('sizes each pool from its setting', () => {
    expect(app.jobsDb).not.toBe(app.db);
    expect((app.db as pg.Pool & { options: { max: number } }).options.max).toBe(3);
    expect((app.jobsDb as pg.Pool & { options: { max: number } }).options.max).toBe(2);
  });

  it('answers API calls while the jobs hold every connection of theirs', async () => {
    const user = await createSignedInUser(app);
    // Long job queries (a check batch, an upload's import) holding all the job connections.
    const held = [await app.jobsDb.connect(), await app.jobsDb.connect()];
    try {
      await Promise.all(held.map((client) => client.query('BEGIN')));
      const another = app.jobsDb.connect();
      expect(await settlesWithin(another, 200)).toBe(false);
      const started = performance.now();
      const responses = await Promise.all(
        [monitoringEndpoints.dashboard.path, `${checkEndpoints.events.path}?page=1&pageSize=25`].map((url) =>
          app.inject({ method: 'GET', url, headers: bearer(user.token) }),
        ),
      );
      expect(responses.map((response) => response.statusCode)).toEqual([200, 200]);
      expect(performance.now() - started).toBeLessThan(5000);
      for (const client of held) {
        await client.query('ROLLBACK');
        client.release();
      }
      held.length = 0;
      (await another).release();
    } finally {
      for (const client of held) {
        client.release();
      }
    }
  });
});
