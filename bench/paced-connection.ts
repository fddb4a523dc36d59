/**
 * The load benchmark's generator: one kept connection that sends its requests at a fixed rate. It
 * replaced autocannon, whose every instance cost ~7 ms of CPU to create: the 100 instances of the
 * load's first second took a core of the 2 for themselves while the app answered the first calls,
 * and their own waits showed as the app's latency (docs/performance.md, «The API under background
 * work»). A connection here costs a socket and a timer.
 */
import http from 'node:http';

export interface PacedRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface PacedConnectionOptions {
  base: string;
  headers: Record<string, string>;
  /** Requests per second; the n-th is due n / rate s after the start. */
  rate: number;
  durationMs: number;
  /** Sent in turn, from the first again after the last. */
  requests: readonly PacedRequest[];
  /** Per answer: which request, its status, and the time from the request's write to its last byte. */
  onAnswer: (index: number, status: number, ms: number) => void;
  onError: (index: number) => void;
  timeoutMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends at the due times over one connection, one request at a time: a request due while the one
 * before it is unanswered goes when that answer has been read, as a browser's connection would (and
 * as autocannon's `overallRate` over one connection did), so a slow answer delays the next send but
 * is counted once, in its own latency.
 */
export async function pacedConnection(options: PacedConnectionOptions): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const started = performance.now();
  const interval = 1000 / options.rate;
  try {
    for (let n = 0; n * interval < options.durationMs; n++) {
      const wait = started + n * interval - performance.now();
      if (wait > 0) {
        await sleep(wait);
      }
      const index = n % options.requests.length;
      const outcome = await send(agent, options, options.requests[index]!);
      if (outcome === null) {
        options.onError(index);
      } else {
        options.onAnswer(index, outcome.status, outcome.ms);
      }
    }
  } finally {
    agent.destroy();
  }
}

function send(
  agent: http.Agent,
  options: PacedConnectionOptions,
  request: PacedRequest,
): Promise<{ status: number; ms: number } | null> {
  return new Promise((resolve) => {
    const body = request.body === undefined ? undefined : Buffer.from(request.body);
    const sentAt = performance.now();
    const outgoing = http.request(
      new URL(request.path, options.base),
      {
        method: request.method,
        agent,
        headers: {
          ...options.headers,
          ...request.headers,
          ...(body ? { 'content-length': String(body.length) } : {}),
        },
        timeout: options.timeoutMs ?? 10_000,
      },
      (incoming) => {
        incoming.resume();
        incoming.on('end', () =>
          resolve({ status: incoming.statusCode ?? 0, ms: performance.now() - sentAt }),
        );
        incoming.on('error', () => resolve(null));
      },
    );
    outgoing.on('timeout', () => outgoing.destroy());
    outgoing.on('error', () => resolve(null));
    outgoing.end(body);
  });
}
