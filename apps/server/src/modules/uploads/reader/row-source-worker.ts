/**
 * The worker thread of openRowSource and openCheckedRows: opens the file with openRowSourceHere and
 * hands its rows to the parent in batches, one batch per request (see open-row-source.ts for the
 * protocol). For an upload's validation it also finds the header and checks the rows after it with
 * the kind's rules, so only COPY lines cross to the parent.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThisThreadPriority } from '../../../lib/thread-priority.ts';
import type { UploadRowRules } from '../kinds/upload-kind.ts';
import type { RowChecker } from '../upload-row-checks.ts';
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
let rules: UploadRowRules | null = null;
let checker: RowChecker | null = null;

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
  const bytesRead = source!.bytesRead();
  post(
    checker
      ? { type: 'checked', checked: checker.check(batch), bytesRead, done }
      : { type: 'rows', rows: batch, bytesRead, done },
  );
}

// What only a validation needs is loaded when one asks (a header read while the user waits does not).
let checks: typeof import('../upload-row-checks.ts') | null = null;

async function findHeader(module: Extract<ReaderRequest, { type: 'header' }>['rules']): Promise<void> {
  // Computed import: the kind's row rules, named by its handler (kinds/upload-kind.ts rowRulesModule).
  const loaded = (await import(module.url)) as Record<string, UploadRowRules>;
  rules = loaded[module.exportName]!;
  checks = await import('../upload-row-checks.ts');
  const { readHeader } = await import('../header/read-header.ts');
  const { rest, ...header } = await readHeader(rules, source!.rows());
  rows = rest;
  post({ type: 'header', ...header });
}

async function answer(request: ReaderRequest): Promise<void> {
  if (request.type === 'header') {
    await findHeader(request.rules);
    return;
  }
  if (request.type === 'check') {
    if (!rules || !checks) {
      throw new Error('rows are checked after the header is found');
    }
    checker = new checks.RowChecker(rules, request.columns, request.uploadId);
  }
  await nextBatch();
}

port.on('message', (request: ReaderRequest) => {
  answer(request).catch((error: unknown) => post(failure(error)));
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
