/**
 * The worker thread of openRowSource: opens the file with openRowSourceHere and hands its rows to
 * the parent in batches, one batch per request (see open-row-source.ts for the protocol).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThisThreadPriority } from '../../../lib/thread-priority.ts';
import { openRowSourceHere } from './open-row-source-here.ts';
import type { FileRow, RowSource } from './row-source.ts';
import type { ReaderReply, ReaderRequest, ReaderWorkerData } from './row-source-protocol.ts';
import { isUploadFileError } from './upload-file-error.ts';

const port = parentPort!;
const { filePath, limits, batchRows, backgroundNice } = workerData as ReaderWorkerData;
lowerThisThreadPriority(backgroundNice);

const post = (reply: ReaderReply) => port.postMessage(reply);
const failure = (error: unknown): ReaderReply =>
  isUploadFileError(error)
    ? { type: 'error', fileError: true, message: error.message }
    : { type: 'error', fileError: false, message: error instanceof Error ? error.message : String(error) };

let source: RowSource | null = null;
let rows: AsyncGenerator<FileRow> | null = null;

async function nextBatch(): Promise<void> {
  rows ??= source!.rows();
  const batch: FileRow[] = [];
  let done = false;
  while (batch.length < batchRows) {
    const next = await rows.next();
    if (next.done) {
      done = true;
      break;
    }
    batch.push(next.value);
  }
  post({ type: 'rows', rows: batch, bytesRead: source!.bytesRead(), done });
}

port.on('message', (request: ReaderRequest) => {
  if (request.type === 'next') {
    nextBatch().catch((error: unknown) => post(failure(error)));
  }
});

try {
  source = await openRowSourceHere(filePath, limits);
  post({
    type: 'open',
    format: source.format,
    encoding: source.encoding,
    delimiter: source.delimiter,
    totalBytes: source.totalBytes,
    sheets: source.sheets,
    sheet: source.sheet,
  });
} catch (error) {
  post(failure(error));
}
