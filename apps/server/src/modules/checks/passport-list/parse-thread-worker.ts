/**
 * The worker thread of PassportListParseThread: reads the list's file through its decoder, parses
 * it with PassportListParser and keeps the keys in a ListKeyStore, all at the job's OS priority;
 * then hands back the version table's rows as binary COPY (see parse-thread.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThisThreadPriority, thisThreadId } from '../../../lib/thread-priority.ts';
import { openListText } from './decompress.ts';
import { ListKeyStore } from './list-keys.ts';
import type {
  ListFile,
  ParseProgress,
  ParseReply,
  ParseRequest,
  ParseWorkerData,
} from './parse-thread-protocol.ts';
import { PassportListError, PassportListParser } from './passport-list-format.ts';

/** Progress is posted at most this often while the file is read. */
const PROGRESS_EVERY_MS = 250;

const port = parentPort!;
const { nice, spillPath, capacity } = workerData as ParseWorkerData;
const parser = new PassportListParser();
const keys = new ListKeyStore(spillPath, capacity);
let rows: Generator<Uint8Array> | undefined;
let errorsSent = 0;
let bytesRead = 0;

const post = (reply: ParseReply | ParseProgress, transfer: ArrayBuffer[] = []) =>
  port.postMessage(reply, transfer);

const progress = (): Omit<ParseProgress, 'type'> => {
  const { rows: read, accepted, rejected, errors } = parser.counts;
  const newErrors = errors.length > errorsSent ? errors.slice(errorsSent) : undefined;
  errorsSent = errors.length;
  return { bytesRead, counts: { rows: read, accepted, rejected }, errors: newErrors };
};

async function load(file: ListFile): Promise<void> {
  let posted = Date.now();
  for await (const chunk of openListText({
    ...file,
    onRead: (bytes) => {
      bytesRead = bytes;
    },
  })) {
    keys.addParsed(parser.push(chunk));
    if (Date.now() - posted >= PROGRESS_EVERY_MS) {
      posted = Date.now();
      post({ type: 'progress', ...progress() });
    }
  }
  keys.addParsed(parser.end());
  post({ type: 'loaded', ...progress() });
}

const fail = (error: unknown) =>
  post({
    type: 'error',
    listError: error instanceof PassportListError,
    message: error instanceof Error ? error.message : String(error),
  });

const lowered = lowerThisThreadPriority(nice);
post({ type: 'ready', threadId: thisThreadId(), priority: lowered });

port.on('message', (request: ParseRequest) => {
  if (request.type === 'load') {
    load(request.file).catch(fail);
    return;
  }
  try {
    rows ??= keys.rows();
    const next = rows.next();
    const out = next.done ? new Uint8Array(0) : next.value;
    post({ type: 'rows', out, done: next.done === true, distinct: keys.distinct }, [
      out.buffer as ArrayBuffer,
    ]);
  } catch (error) {
    fail(error);
  }
});
