import { Worker } from 'node:worker_threads';
import type { FileRow, RowSource } from './row-source.ts';
import type { ReaderReply, ReaderRequest, ReaderWorkerData } from './row-source-protocol.ts';
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

/**
 * Opens an upload file by its content (CSV or XLSX) in a worker thread of its own, with its own
 * heap limit, and streams its rows back in batches (one batch read ahead). Throws UploadFileError
 * for a file that is not a table, is refused by the readers' caps, or kills its thread.
 */
export async function openRowSource(
  filePath: string,
  limits: XlsxLimits & {
    /** The reader thread's heap, READER_HEAP_MB unless told. */
    readerHeapMb?: number;
    /**
     * JOBS_DB_NICE for a job's read (an upload's validation): the thread parses as background work
     * (SCHED_IDLE, else this nice; lib/thread-priority.ts), so the API's requests take the cores
     * first. 0 or absent: the app's priority (a header read while a user waits).
     */
    backgroundNice?: number;
  },
): Promise<RowSource> {
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
  // Replies in order; a waiter takes the next one. The thread's death is the last "reply".
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
  const close = async () => {
    if (!closed) {
      closed = true;
      await worker.terminate();
    }
  };
  const nextReply = (): Promise<ReaderReply> => {
    const queued = replies.shift() ?? (dead && replies.length === 0 ? dead : undefined);
    return queued ? Promise.resolve(queued) : new Promise((resolve) => (waiter = resolve));
  };
  const request = (message: ReaderRequest) => {
    if (!dead) {
      worker.postMessage(message);
    }
  };
  const raise = (reply: Extract<ReaderReply, { type: 'error' }>): never => {
    throw reply.fileError ? new UploadFileError(reply.message) : new Error(reply.message);
  };

  const opened = await nextReply();
  if (opened.type !== 'open') {
    await close();
    return raise(opened as Extract<ReaderReply, { type: 'error' }>);
  }
  let bytesRead = 0;
  let started = false;

  async function* rows(): AsyncGenerator<FileRow> {
    if (started) {
      throw new Error('RowSource.rows() is read once');
    }
    started = true;
    request({ type: 'next' });
    for (;;) {
      const reply = await nextReply();
      if (reply.type === 'error') {
        raise(reply);
      }
      if (reply.type !== 'rows') {
        throw new Error(`unexpected reply from the reader thread: ${reply.type}`);
      }
      // The next batch is read while this one is validated.
      if (!reply.done) {
        request({ type: 'next' });
      }
      bytesRead = reply.bytesRead;
      yield* reply.rows;
      if (reply.done) {
        return;
      }
    }
  }

  return {
    format: opened.format,
    encoding: opened.encoding,
    delimiter: opened.delimiter,
    totalBytes: opened.totalBytes,
    sheets: opened.sheets,
    sheet: opened.sheet,
    rows,
    bytesRead: () => bytesRead,
    close,
  };
}
