import type { FileColumn } from '../header/find-header.ts';
import type { HeaderRead } from '../header/read-header.ts';
import type { UploadKindHandler } from '../kinds/upload-kind.ts';
import type { CheckedRows } from '../upload-row-checks.ts';
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

/** The header as the reader thread found it (HeaderRead without the rows after it, which stay there). */
export type HeaderFound = Omit<HeaderRead, 'rest'>;

/**
 * Parent → reader: `next` asks for the next batch (raw rows, or checked ones once a `check` came);
 * `header` loads the kind's row rules and finds the header; `check` says how the rows after it are
 * checked (the upload and its columns), and asks for the first checked batch.
 */
export type ReaderRequest =
  | { type: 'next' }
  | { type: 'header'; rules: UploadKindHandler['rowRulesModule'] }
  | { type: 'check'; uploadId: string; columns: FileColumn[] };

/** Reader → parent: the file opened, its header, a batch of rows (the last one has done), or the failure. */
export type ReaderReply =
  | ({ type: 'open' } & Pick<
      RowSource,
      'format' | 'encoding' | 'delimiter' | 'totalBytes' | 'sheets' | 'sheet'
    >)
  | ({ type: 'header' } & HeaderFound)
  | { type: 'rows'; rows: FileRow[]; bytesRead: number; done: boolean }
  | { type: 'checked'; checked: CheckedRows; bytesRead: number; done: boolean }
  | { type: 'error'; fileError: boolean; message: string };
