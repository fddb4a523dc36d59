import { Worker } from 'node:worker_threads';
import type { FileColumn } from '../header/find-header.ts';
import type { UploadKindHandler } from '../kinds/upload-kind.ts';
import type { CheckedRows } from '../upload-row-checks.ts';
import type { FileRow, RowSource } from './row-source.ts';
import type { HeaderFound, ReaderReply, ReaderRequest, ReaderWorkerData } from './row-source-protocol.ts';
import { UploadFileError } from './upload-file-error.ts';
import type { XlsxLimits } from './xlsx-reader.ts';

/**
 * The reader thread's heap. A user's file is parsed there, so a parser weakness nobody knows of yet
 * (a file that makes it allocate without end) costs that upload, not the server: the thread dies at
 * this size and the upload fails with READER_MEMORY_MESSAGE. The largest shared-strings table the
 * XLSX reader keeps (5 million strings) fits.
 */
export const READER_HEAP_MB = 512;
/** Rows a message carries: few enough messages that the thread boundary costs little per row. */
export const READER_BATCH_ROWS = 1000;

export const READER_MEMORY_MESSAGE =
  'Файл не удалось прочитать: его разбор превысил допустимый объём памяти. Загрузка отклонена — ' +
  'сохраните файл как CSV и загрузите ещё раз';
export const READER_CRASH_MESSAGE =
  'Файл не удалось прочитать: разбор файла завершился сбоем. Загрузка отклонена — ' +
  'сохраните файл заново (CSV или XLSX) и загрузите ещё раз';

const WORKER_URL = new URL('./row-source-worker.ts', import.meta.url);

type ReaderLimits = XlsxLimits & {
  /** The reader thread's heap, READER_HEAP_MB unless told. */
  readerHeapMb?: number;
  /**
   * JOBS_DB_NICE for a job's read (an upload's validation): the thread parses as background work
   * (SCHED_IDLE, else this nice; lib/thread-priority.ts), so the API's requests take the cores
   * first. 0 or absent: the app's priority (a header read while a user waits).
   */
  backgroundNice?: number;
};

type ErrorReply = Extract<ReaderReply, { type: 'error' }>;
type OpenReply = Extract<ReaderReply, { type: 'open' }>;
type Batch = Extract<ReaderReply, { type: 'rows' | 'checked' }>;

/**
 * Starts the reader thread on a file, with its own heap limit, and waits until the file is open.
 * Replies come in order; the thread's death is its last "reply". Throws UploadFileError for a file
 * that is not a table, is refused by the readers' caps, or kills its thread.
 */
async function startReaderThread(filePath: string, limits: ReaderLimits) {
  const { readerHeapMb = READER_HEAP_MB, backgroundNice = 0, ...xlsxLimits } = limits;
  const data: ReaderWorkerData = {
    filePath,
    limits: xlsxLimits,
    batchRows: READER_BATCH_ROWS,
    backgroundNice,
  };
  const worker = new Worker(WORKER_URL, {
    workerData: data,
    resourceLimits: {
      maxOldGenerationSizeMb: readerHeapMb,
      maxYoungGenerationSizeMb: Math.min(32, readerHeapMb / 2),
    },
    stdout: false,
    stderr: false,
  });
  const replies: ReaderReply[] = [];
  let waiter: ((reply: ReaderReply) => void) | null = null;
  let dead: ReaderReply | null = null;
  const deliver = (reply: ReaderReply) => {
    if (waiter) {
      const resolve = waiter;
      waiter = null;
      resolve(reply);
    } else {
      replies.push(reply);
    }
  };
  const die = (message: string) => {
    if (!dead) {
      dead = { type: 'error', fileError: true, message };
      deliver(dead);
    }
  };
  worker.on('message', deliver);
  worker.on('error', (error: Error & { code?: string }) => {
    die(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? READER_MEMORY_MESSAGE : READER_CRASH_MESSAGE);
  });
  worker.on('exit', () => die(READER_CRASH_MESSAGE));
  let closed = false;
  const thread = {
    async close() {
      if (!closed) {
        closed = true;
        await worker.terminate();
      }
    },
    /** The next reply; an error reply is thrown (UploadFileError for the user's file). */
    async reply(): Promise<Exclude<ReaderReply, ErrorReply>> {
      const queued = replies.shift() ?? (dead && replies.length === 0 ? dead : undefined);
      const reply = await (queued
        ? Promise.resolve(queued)
        : new Promise<ReaderReply>((resolve) => (waiter = resolve)));
      if (reply.type === 'error') {
        throw reply.fileError ? new UploadFileError(reply.message) : new Error(reply.message);
      }
      return reply;
    },
    request(message: ReaderRequest) {
      if (!dead) {
        worker.postMessage(message);
      }
    },
  };
  try {
    const opened = await thread.reply();
    if (opened.type !== 'open') {
      throw new Error(`unexpected reply from the reader thread: ${opened.type}`);
    }
    return { thread, opened };
  } catch (error) {
    await thread.close();
    throw error;
  }
}
type ReaderThread = Awaited<ReturnType<typeof startReaderThread>>['thread'];

/** The file's facts as a RowSource tells them. */
const factsOf = (opened: OpenReply) => ({
  format: opened.format,
  encoding: opened.encoding,
  delimiter: opened.delimiter,
  totalBytes: opened.totalBytes,
  sheets: opened.sheets,
  sheet: opened.sheet,
});

/**
 * The thread's batches, one read ahead: the next batch is asked for as soon as one arrives, so the
 * thread reads (and checks) it while the caller handles this one.
 */
async function* batches(
  thread: ReaderThread,
  first: ReaderRequest,
  onBytes: (bytesRead: number) => void,
): AsyncGenerator<Batch> {
  thread.request(first);
  for (;;) {
    const batch = await thread.reply();
    if (batch.type !== 'rows' && batch.type !== 'checked') {
      throw new Error(`unexpected reply from the reader thread: ${batch.type}`);
    }
    if (!batch.done) {
      thread.request({ type: 'next' });
    }
    onBytes(batch.bytesRead);
    yield batch;
    if (batch.done) {
      return;
    }
  }
}

/**
 * Opens an upload file by its content (CSV or XLSX) in a worker thread of its own, with its own
 * heap limit, and streams its rows back in batches (one batch read ahead). Throws UploadFileError
 * for a file that is not a table, is refused by the readers' caps, or kills its thread.
 */
export async function openRowSource(filePath: string, limits: ReaderLimits): Promise<RowSource> {
  const { thread, opened } = await startReaderThread(filePath, limits);
  let bytesRead = 0;
  let started = false;

  async function* rows(): AsyncGenerator<FileRow> {
    if (started) {
      throw new Error('RowSource.rows() is read once');
    }
    started = true;
    for await (const batch of batches(thread, { type: 'next' }, (bytes) => (bytesRead = bytes))) {
      yield* batch.type === 'rows' ? batch.rows : [];
    }
  }

  return { ...factsOf(opened), rows, bytesRead: () => bytesRead, close: thread.close };
}

/** An upload file opened for its validation: its header found, its rows checked, in the reader thread. */
export interface CheckedRowSource extends Omit<RowSource, 'rows'> {
  header: HeaderFound;
  /**
   * The rows after the header checked by the kind's rules, with the columns the upload maps, in
   * batches of COPY lines; read once.
   */
  checkedRows(plan: { uploadId: string; columns: FileColumn[] }): AsyncGenerator<CheckedRows>;
}

/**
 * Opens an upload file as openRowSource does, loads the kind's row rules in the reader thread and
 * finds the header there; the rows are then checked there too (upload-row-checks.ts), so a big
 * file's validation leaves the API's thread only the writing of the lines. Throws UploadFileError
 * as openRowSource does, and for a file whose header is not found.
 */
export async function openCheckedRows(
  filePath: string,
  limits: ReaderLimits & { rules: UploadKindHandler['rowRulesModule'] },
): Promise<CheckedRowSource> {
  const { rules, ...readerLimits } = limits;
  const { thread, opened } = await startReaderThread(filePath, readerLimits);
  let header: HeaderFound;
  try {
    thread.request({ type: 'header', rules });
    const reply = await thread.reply();
    if (reply.type !== 'header') {
      throw new Error(`unexpected reply from the reader thread: ${reply.type}`);
    }
    const { type: _type, ...found } = reply;
    header = found;
  } catch (error) {
    await thread.close();
    throw error;
  }
  let bytesRead = 0;
  let started = false;

  async function* checkedRows(plan: {
    uploadId: string;
    columns: FileColumn[];
  }): AsyncGenerator<CheckedRows> {
    if (started) {
      throw new Error('checkedRows() is read once');
    }
    started = true;
    const first: ReaderRequest = { type: 'check', ...plan };
    for await (const batch of batches(thread, first, (bytes) => (bytesRead = bytes))) {
      if (batch.type === 'checked') {
        yield batch.checked;
      }
    }
  }

  return { ...factsOf(opened), header, checkedRows, bytesRead: () => bytesRead, close: thread.close };
}
