/**
 * The worker thread of PassportListParseThread: parses the list's chunks with PassportListParser at
 * the job's OS priority and hands back their COPY text (see parse-thread.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThisThreadPriority, thisThreadId } from '../../../lib/thread-priority.ts';
import type { ParseReply, ParseRequest, ParseWorkerData } from './parse-thread-protocol.ts';
import { PassportListError, PassportListParser } from './passport-list-format.ts';

const port = parentPort!;
const { nice } = workerData as ParseWorkerData;
const parser = new PassportListParser();
let errorsSent = 0;

const post = (reply: ParseReply, transfer: ArrayBuffer[] = []) => port.postMessage(reply, transfer);

const lowered = lowerThisThreadPriority(nice);
post({ type: 'ready', threadId: thisThreadId(), priority: lowered });

port.on('message', (request: ParseRequest) => {
  try {
    const parsed = request.type === 'push' ? parser.push(request.chunk) : parser.end();
    // A copy of its own: a small output may share Node's buffer pool, which must not be transferred.
    const out = new Uint8Array(parsed);
    const { rows, accepted, rejected, errors } = parser.counts;
    // Rejected rows' details only when there are new ones (at most MAX_REPORTED_ERRORS in all).
    const newErrors = errors.length > errorsSent ? errors.slice(errorsSent) : undefined;
    errorsSent = errors.length;
    post({ type: 'out', out, counts: { rows, accepted, rejected }, errors: newErrors }, [out.buffer]);
  } catch (error) {
    post({
      type: 'error',
      listError: error instanceof PassportListError,
      message: error instanceof Error ? error.message : String(error),
    });
  }
});
