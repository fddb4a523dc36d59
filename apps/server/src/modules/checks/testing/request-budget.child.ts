/**
 * One process taking requests from a source's budget (request-budget.test.ts starts two): prints a
 * JSON line with the send time booked for each request (by the database's clock).
 */
import type { SourceType } from '@pledgewatch/contract';
import { createPool } from '../../../db/pool.ts';
import { sendTurn } from './send-turn.ts';

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
      sent.push(await sendTurn(db, type, Number(rate)));
    }
  }),
);
await db.end();
process.stdout.write(`${JSON.stringify(sent)}\n`);
