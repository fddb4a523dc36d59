import type { SourceType } from '@pledgewatch/contract';
import type { Queryable } from '../../../db/pool.ts';
import { takeRequest } from '../sources/request-budget.ts';

/** Takes one request of `type` under a rate limit alone (no daily limit, no account) and returns its send time. */
export async function sendTurn(db: Queryable, type: SourceType, rateLimit: number): Promise<number> {
  const taken = await takeRequest(db, type, { rateLimit });
  if (typeof taken === 'string' || !('sendAtMs' in taken)) {
    throw new Error(`no turn without a daily limit or a pause: ${JSON.stringify(taken)}`);
  }
  return taken.sendAtMs;
}
