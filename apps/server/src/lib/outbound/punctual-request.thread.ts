/**
 * The punctual thread (punctual-request.ts): waits for each job's due time and sends it, on an event
 * loop that does nothing else, so the request leaves when it was booked whatever the process's main
 * thread is busy with. A job whose time is past by more than its limit, when it is due or when its
 * connection is ready to take the bytes, is not sent.
 */
import { parentPort } from 'node:worker_threads';
import { OutboundError, outboundRequest, RequestNotSent } from './outbound-request.ts';
import type { PunctualJob, PunctualReply } from './punctual-request-protocol.ts';

const port = parentPort!;
const post = (reply: PunctualReply) => port.postMessage(reply);

async function send(job: PunctualJob): Promise<void> {
  const lateMs = () => Date.now() - job.dueAtMs;
  const onTime = () => lateMs() <= job.lateLimitMs;
  if (!onTime()) {
    post({ id: job.id, type: 'missed', lateMs: lateMs() });
    return;
  }
  try {
    const response = await outboundRequest(job.url, {
      ...job.options,
      policy: { allowedRanges: [], trusted: true },
      // Asked again when the bytes can go: a new connection, or this loop busy with answers, can
      // take longer than the limit, and the limit bounds when the request reaches the provider.
      stillWanted: onTime,
    });
    post({
      id: job.id,
      type: 'sent',
      status: response.status,
      headers: response.headers,
      body: response.body,
    });
  } catch (error) {
    if (error instanceof RequestNotSent) {
      post({ id: job.id, type: 'missed', lateMs: lateMs() });
      return;
    }
    post({
      id: job.id,
      type: 'failed',
      kind: error instanceof OutboundError ? error.kind : null,
      message: error instanceof Error ? error.message : String(error),
    });
  }
}

/**
 * Fires at the due time, never before it: a timer may wake a little early, so the clock is read
 * again. Date.now(), as in the main thread (request-budget.ts): one clock for both.
 */
function at(job: PunctualJob): void {
  const waitMs = job.dueAtMs - Date.now();
  if (waitMs > 0) {
    setTimeout(() => at(job), Math.ceil(waitMs));
  } else {
    void send(job);
  }
}

port.on('message', at);
// Ready: the module is loaded and listening (punctualRequest waits for this before its first job).
post({ id: 0, type: 'ready' });
