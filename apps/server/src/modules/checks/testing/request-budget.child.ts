/**
 * One process taking requests from a source's budget (request-budget.test.ts starts two): prints a
 * JSON line with the time each request would have been sent (Date.now()).
 */
import type { SourceType } from '@pledgewatch/contract';
import { createPool } from '../../../db/pool.ts';
import { takeRequest } from '../sources/request-budget.ts';

const [databaseUrl, type, rate, count, concurrency] = process.argv.slice(2) as [
  string,
  SourceType,
  string,
  string,
  string,
];
const db = createPool(databaseUrl, 4);
const sent: number[] = [];
let left = Number(count);
await Promise.all(
  Array.from({ length: Number(concurrency) }, async () => {
    while (left > 0) {
      left--;
      if ((await takeRequest(db, type, { rateLimit: Number(rate) })) === 'ok') {
        sent.push(Date.now());
      }
    }
  }),
);
await db.end();
process.stdout.write(`${JSON.stringify(sent)}\n`);
