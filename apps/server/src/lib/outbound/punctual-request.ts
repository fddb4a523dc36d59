import { Worker } from 'node:worker_threads';
import {
  OUTBOUND_MESSAGES,
  OutboundError,
  type OutboundRequestOptions,
  type OutboundResponse,
} from './outbound-request.ts';
import type { PunctualJob, PunctualReply } from './punctual-request-protocol.ts';

const THREAD_URL = new URL('./punctual-request.thread.ts', import.meta.url);

/** The answer of a punctual request: its response, or `missed` when its time had passed. */
export type PunctualResult = { sent: OutboundResponse } | { missed: { lateMs: number } };

interface Pending {
  resolve: (result: PunctualResult) => void;
  reject: (error: Error) => void;
}

/**
 * One thread per process sends every punctual request (a rate-limited provider's). Its event loop
 * only waits for due times and moves bytes, so it wakes when a request is due; the main thread's
 * event loop, busy with answers, database replies and the API, woke for a timer 8 ms late at the
 * median and up to 250 ms late in the providers benchmark, and late sends bunched into one second at
 * the provider (docs/providers.md, «Rate limit»). Lazily started; unref'd, so it never keeps the
 * process alive; a thread that dies fails what it held and the next request starts a new one.
 */
let thread: {
  worker: Worker;
  pending: Map<number, Pending>;
  ready: Promise<void>;
  isReady: () => boolean;
} | null = null;
let nextId = 1;

function punctualThread() {
  if (thread) {
    return thread;
  }
  const worker = new Worker(THREAD_URL, { stdout: false, stderr: false });
  const pending = new Map<number, Pending>();
  let up = false;
  let markReady = () => {};
  let failToStart = (_error: Error) => {};
  const ready = new Promise<void>((resolve, reject) => {
    markReady = () => {
      up = true;
      resolve();
    };
    failToStart = reject;
  });
  // A caller that awaits it sees the rejection; nobody else needs to.
  ready.catch(() => {});
  const current = { worker, pending, ready, isReady: () => up };
  worker.unref();
  worker.on('message', (reply: PunctualReply) => {
    if (reply.type === 'ready') {
      markReady();
      return;
    }
    const waiter = pending.get(reply.id);
    pending.delete(reply.id);
    if (pending.size === 0) {
      worker.unref();
    }
    if (!waiter) {
      return;
    }
    if (reply.type === 'sent') {
      const body = Buffer.from(reply.body.buffer, reply.body.byteOffset, reply.body.byteLength);
      waiter.resolve({ sent: { status: reply.status, headers: reply.headers, body } });
    } else if (reply.type === 'missed') {
      waiter.resolve({ missed: { lateMs: reply.lateMs } });
    } else {
      waiter.reject(reply.kind ? new OutboundError(reply.kind, reply.message) : new Error(reply.message));
    }
  });
  const die = () => {
    failToStart(new OutboundError('connect', OUTBOUND_MESSAGES.connect));
    if (thread === current) {
      thread = null;
    }
    for (const waiter of pending.values()) {
      waiter.reject(new OutboundError('connect', OUTBOUND_MESSAGES.connect));
    }
    pending.clear();
  };
  worker.on('error', die);
  worker.on('exit', die);
  thread = current;
  return current;
}

/**
 * Starts the punctual thread, if it is not running, and resolves when it takes requests: a source
 * starts it when it is created, so that a process's first requests are not handed to a thread
 * still loading (their turns would pass meanwhile).
 */
export function startPunctualThread(): Promise<void> {
  return punctualThread().ready;
}

/**
 * Sends a request to an operator-configured address (a trusted policy: no address check, no
 * redirects, outbound-request.ts) at `dueAtMs` (epoch ms, this machine's clock), never before it.
 * If the thread gets to it more than `lateLimitMs` after that time (the process was starved of CPU,
 * or asked too late), the request is not sent and the result is `missed`: the caller books another
 * time. Transport failures reject with OutboundError, as outboundRequest does.
 */
export function punctualRequest(
  url: string,
  options: Omit<OutboundRequestOptions, 'policy'>,
  due: { dueAtMs: number; lateLimitMs: number },
): Promise<PunctualResult> {
  const current = punctualThread();
  // Handed over at once when the thread is up: not a microtask later, which a caller that then
  // keeps its thread busy would delay.
  if (current.isReady()) {
    return post(current, url, options, due);
  }
  return current.ready.then(() => punctualRequest(url, options, due));
}

function post(
  { worker, pending }: NonNullable<typeof thread>,
  url: string,
  options: Omit<OutboundRequestOptions, 'policy'>,
  due: { dueAtMs: number; lateLimitMs: number },
): Promise<PunctualResult> {
  const id = nextId++;
  const job: PunctualJob = { id, url, options, dueAtMs: due.dueAtMs, lateLimitMs: due.lateLimitMs };
  return new Promise<PunctualResult>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    // Held while it waits for an answer: a run awaiting it must not see the process exit under it.
    worker.ref();
    worker.postMessage(job);
  });
}
