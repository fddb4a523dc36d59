import { afterAll, describe, expect, it } from 'vitest';
import { createPool } from '../../db/pool.ts';
import { buildTestApp } from '../../testing/test-app.ts';
import { touchSessionByTokenHash } from './auth.queries.ts';

const { connectionString } = await buildTestApp();
const pool = createPool(connectionString, 1, 'session-plan-test');
afterAll(() => pool.end());

describe('the session lookup of every request', () => {
  it('is planned once a connection and its plan kept, not planned again on each request', async () => {
    const client = await pool.connect();
    try {
      // PostgreSQL plans a prepared statement's first five runs for their values, then keeps a
      // generic plan when it costs no more: from the sixth run on, no planning.
      for (let request = 0; request < 8; request++) {
        expect(await touchSessionByTokenHash(client, `no-such-token-${request}`, 3600)).toBeUndefined();
      }
      const { rows } = await client.query<{ generic_plans: string; custom_plans: string }>(
        `SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = 'touch-session'`,
      );
      expect(rows).toHaveLength(1);
      expect(Number(rows[0]!.generic_plans)).toBeGreaterThanOrEqual(3);
      expect(Number(rows[0]!.custom_plans)).toBeLessThanOrEqual(5);
    } finally {
      client.release();
    }
  });
});
