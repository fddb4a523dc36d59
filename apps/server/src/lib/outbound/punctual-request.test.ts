import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundError } from './outbound-request.ts';
import { punctualRequest, startPunctualThread } from './punctual-request.ts';

/**
 * A provider stand-in on a thread of its own, so that it notes arrival times while the test's own
 * thread is blocked, as a provider on another machine would.
 */
const STAND_IN = `
const http = require('node:http');
const { parentPort } = require('node:worker_threads');
let arrivals = [];
const server = http.createServer((request, response) => {
  arrivals.push({ at: Date.now(), url: request.url });
  response.setHeader('x-answer', 'yes');
  response.end('answer to ' + request.url);
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
parentPort.on('message', () => { parentPort.postMessage({ arrivals }); arrivals = []; });
`;

let standIn: Worker;
let base: string;
const nowMs = () => Date.now();

async function takeArrivals(): Promise<{ at: number; url: string }[]> {
  standIn.postMessage('take');
  const [message] = (await once(standIn, 'message')) as [{ arrivals: { at: number; url: string }[] }];
  return message.arrivals;
}

/** Keeps this thread's event loop from running for `ms`, as a busy worker's answers and replies do. */
function blockFor(ms: number) {
  const until = nowMs() + ms;
  while (nowMs() < until) {
    // busy
  }
}

const options = { timeoutMs: 2000, readBody: true } as const;

beforeAll(async () => {
  standIn = new Worker(STAND_IN, { eval: true });
  const [message] = (await once(standIn, 'message')) as [{ port: number }];
  base = `http://127.0.0.1:${message.port}`;
  await startPunctualThread();
});

afterAll(async () => {
  await standIn.terminate();
});

describe('punctualRequest', () => {
  it('sends each request at its due time while the calling thread is blocked, never before it', async () => {
    // A worker's event loop busy for 400 ms used to hold every request due meanwhile until it was
    // free, and then they went out together: more than the limit in one second at the provider.
    await takeArrivals();
    const start = nowMs();
    // Whole ms, as the stand-in's clock reads: an arrival at the due time reads at least the due time.
    const due = [100, 150, 200, 250].map((offset) => start + offset);
    const results = due.map((dueAtMs, i) =>
      punctualRequest(`${base}/check?n=${i}`, options, { dueAtMs, lateLimitMs: 30 }),
    );
    blockFor(450);
    const answers = await Promise.all(results);
    expect(answers.map((answer) => ('sent' in answer ? answer.sent.body.toString() : 'missed'))).toEqual(
      due.map((_, i) => `answer to /check?n=${i}`),
    );
    const arrivals = await takeArrivals();
    const byUrl = new Map(arrivals.map((arrival) => [arrival.url, arrival.at]));
    for (const [i, dueAtMs] of due.entries()) {
      const at = byUrl.get(`/check?n=${i}`)!;
      expect(at).toBeGreaterThanOrEqual(dueAtMs);
      // Well before the calling thread was free again (start + 450).
      expect(at - dueAtMs).toBeLessThan(100);
    }
  });

  it('does not send a request whose time passed by more than its limit: it is missed', async () => {
    await takeArrivals();
    const answer = await punctualRequest(`${base}/check?n=late`, options, {
      dueAtMs: nowMs() - 200,
      lateLimitMs: 30,
    });
    expect(answer).toEqual({ missed: { lateMs: expect.any(Number) } });
    expect((answer as { missed: { lateMs: number } }).missed.lateMs).toBeGreaterThanOrEqual(200);
    // A request sent anyway would have arrived by now.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await takeArrivals()).toEqual([]);
  });

  it('gives the status, headers and body back, and transport failures as OutboundError', async () => {
    const answer = await punctualRequest(`${base}/x`, options, { dueAtMs: nowMs(), lateLimitMs: 30 });
    expect('sent' in answer && answer.sent).toMatchObject({ status: 200, headers: { 'x-answer': 'yes' } });
    expect('sent' in answer && Buffer.isBuffer(answer.sent.body)).toBe(true);
    // Port 9 (discard) is closed on loopback here: refused.
    const refused = punctualRequest('http://127.0.0.1:9/x', options, { dueAtMs: nowMs(), lateLimitMs: 30 });
    await expect(refused).rejects.toBeInstanceOf(OutboundError);
    await expect(refused).rejects.toMatchObject({ kind: 'connect' });
  });
});
