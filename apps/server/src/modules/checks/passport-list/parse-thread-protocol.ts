import type { Bzip2Decoder } from './decompress.ts';
import type { PassportListCounts } from './passport-list-format.ts';

/** What the thread reads: the list's file and how (openListText's options). */
export interface ListFile {
  path: string;
  fileName?: string;
  maxBytes: number;
  decoder?: Bzip2Decoder | 'javascript';
  /** The decoder's OS priority (JOBS_DB_NICE); 0: the process's own. */
  nice: number;
}

/**
 * Messages between PassportListParseThread and its worker (parse-thread-worker.ts): the file to
 * load, then the version table's rows asked for piece by piece. Progress comes unasked.
 */
export type ParseRequest = { type: 'load'; file: ListFile } | { type: 'rows' };

export type ParseProgress = {
  type: 'progress';
  /** Compressed bytes read. */
  bytesRead: number;
  counts: Omit<PassportListCounts, 'errors'>;
  /** Rejected rows not sent before (at most MAX_REPORTED_ERRORS in all). */
  errors?: PassportListCounts['errors'];
};

export type ParseReply =
  | { type: 'ready'; threadId: number | undefined; priority: 'idle' | 'nice' | 'none' }
  /** The whole file read: the last progress. */
  | (Omit<ParseProgress, 'type'> & { type: 'loaded' })
  /** A piece of the rows as binary COPY; `done` with the last one, `distinct` passports in all. */
  | { type: 'rows'; out: Uint8Array; done: boolean; distinct: number }
  | { type: 'error'; listError: boolean; message: string };

export interface ParseWorkerData {
  nice: number;
  /** The spill files' path prefix (ListKeyStore). */
  spillPath: string;
  /** Keys buffered before a spill (tests make it small). */
  capacity?: number;
}
