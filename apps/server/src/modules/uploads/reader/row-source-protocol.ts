import type { FileRow, RowSource } from './row-source.ts';
import type { XlsxLimits } from './xlsx-reader.ts';

/** What the reader thread is started with. */
export interface ReaderWorkerData {
  filePath: string;
  limits: XlsxLimits;
  batchRows: number;
  /** > 0: the thread runs as background work (a job's validation; lib/thread-priority.ts). */
  backgroundNice: number;
}

/** Parent → reader: the next batch of rows, please. */
export type ReaderRequest = { type: 'next' };

/** Reader → parent: the file opened, a batch of rows (the last one has done), or the failure. */
export type ReaderReply =
  | ({ type: 'open' } & Pick<
      RowSource,
      'format' | 'encoding' | 'delimiter' | 'totalBytes' | 'sheets' | 'sheet'
    >)
  | { type: 'rows'; rows: FileRow[]; bytesRead: number; done: boolean }
  | { type: 'error'; fileError: boolean; message: string };
