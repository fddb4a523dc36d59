/**
 * The worker thread of PassportListParseThread: parses the list's chunks with PassportListParser at
 * the job's OS priority, keeps their keys in a ListKeyStore, and at the end hands back the version
 * table's rows as binary COPY (see parse-thread.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThisThreadPriority, thisThreadId } from '../../../lib/thread-priority.ts';
import { ListKeyStore } from './list-keys.ts';
import type { ParseReply, ParseRequest, ParseWorkerData } from './parse-thread-protocol.ts';
import { PassportListError, PassportListParser } from './passport-list-format.ts';

const port = parentPort!;
const { nice, spillPath, capacity } = workerData as ParseWorkerData;
const parser = new PassportListParser();
const keys = new ListKeyStore(spillPath, capacity);
let rows: Generator<Uint8Array> | undefined;
let errorsSent = 0;

const post = (reply: ParseReply, transfer: ArrayBuffer[] = []) => port.postMessage(reply, transfer);

const lowered = lowerThisThreadPriority(nice);
post({ type: 'ready', threadId: thisThreadId(), priority: lowered });

port.on('message', (request: ParseRequest) => {
  try {
    if (request.type === 'rows') {
      rows ??= keys.rows();
      const next = rows.next();
      const out = next.done ? new Uint8Array(0) : next.value;
      post({ type: 'rows', out, done: next.done === true, distinct: keys.distinct }, [
        out.buffer as ArrayBuffer,
      ]);
      return;
    }
    keys.addParsed(request.type === 'push' ? parser.push(request.chunk) : parser.end());
    const { rows: read, accepted, rejected, errors } = parser.counts;
    // Rejected rows' details only when there are new ones (at most MAX_REPORTED_ERRORS in all).
    const newErrors = errors.length > errorsSent ? errors.slice(errorsSent) : undefined;
    errorsSent = errors.length;
    post({ type: 'parsed', counts: { rows: read, accepted, rejected }, errors: newErrors });
  } catch (error) {
    post({
      type: 'error',
      listError: error instanceof PassportListError,
      message: error instanceof Error ? error.message : String(error),
    });
  }
});
