import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../testing/test-app.ts';

const { app } = await buildTestApp();

describe('the app pool', () => {
  it('opens connections with JIT off (short statements whose estimates pass the JIT threshold)', async () => {
    const settings = await Promise.all(
      Array.from({ length: 3 }, async () => (await app.db.query<{ jit: string }>('SHOW jit')).rows[0]!.jit),
    );
    expect(settings).toEqual(['off', 'off', 'off']);
  });
});
