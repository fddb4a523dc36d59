import { afterAll, describe, expect, it } from 'vitest';
import type { RemoteSourceConfig } from '../../../../config/env.ts';
import { SEND_GUARD_MS } from '../request-budget.ts';
import { MAX_MISSED_TURNS, sendProviderRequest } from './provider-http.ts';
import { failureOf, startFixtureServer } from './provider-test-kit.ts';

const server = await startFixtureServer(() => ({ body: '{"findings":[]}' }));
afterAll(() => server.close());

const config: RemoteSourceConfig = {
  provider: 'json-service',
  url: server.url,
  timeoutMs: 2000,
  retries: 0,
  rateLimit: 100,
  price: 0,
};

/** Turns whose due times are given in order (ms from now); records the turns given back. */
function turns(offsetsMs: number[]) {
  const missed: number[] = [];
  let taken = 0;
  return {
    missed,
    takeTurn: async () => {
      const offset = offsetsMs[Math.min(taken, offsetsMs.length - 1)]!;
      taken++;
      return { dueAtMs: Date.now() + offset, offset };
    },
    missedTurn: async (turn: { offset: number }) => {
      missed.push(turn.offset);
    },
  };
}

describe('sendProviderRequest and its turn', () => {
  it('gives back a turn it cannot keep (sent too late) and sends on the next one', async () => {
    // A request that went out whenever its process got round to it put more than the limit into a
    // second at the provider; one later than SEND_GUARD_MS is not sent on that turn.
    server.requests.length = 0;
    // The later turns lead by a second. On a loaded machine (a test run's other files) a later turn
    // may be missed too, its thread woken more than the guard late: given back as well, never sent.
    const budget = turns([-(SEND_GUARD_MS + 200), 1000]);
    const answer = await sendProviderRequest({ type: 'wanted', config, ...budget }, { path: '/check' });
    expect(answer.status).toBe(200);
    expect(budget.missed[0]).toBe(-(SEND_GUARD_MS + 200));
    expect(budget.missed.slice(1).every((offset) => offset === 1000)).toBe(true);
    expect(budget.missed.length).toBeLessThan(MAX_MISSED_TURNS);
    expect(server.requests).toHaveLength(1);
  });

  it('fails as «не ответил вовремя» after missing its turn MAX_MISSED_TURNS times, sending nothing', async () => {
    server.requests.length = 0;
    const budget = turns([-1000]);
    const failure = await failureOf(
      sendProviderRequest({ type: 'wanted', config, ...budget }, { path: '/check' }),
    );
    expect(failure?.kind).toBe('timeout');
    expect(failure?.retryable).toBe(true);
    expect(failure?.message).toContain('не отправлен вовремя');
    expect(budget.missed).toHaveLength(MAX_MISSED_TURNS);
    expect(server.requests).toHaveLength(0);
  });
});
