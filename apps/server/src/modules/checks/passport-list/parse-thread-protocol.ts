import type { PassportListCounts } from './passport-list-format.ts';

/**
 * Messages between PassportListParseThread and its worker (parse-thread-worker.ts): chunks of the
 * list pushed in, the end, then the version table's rows asked for piece by piece.
 */
export type ParseRequest = { type: 'push'; chunk: Uint8Array } | { type: 'end' } | { type: 'rows' };

export type ParseReply =
  | { type: 'ready'; threadId: number | undefined; priority: 'idle' | 'nice' | 'none' }
  | {
      type: 'parsed';
      counts: Omit<PassportListCounts, 'errors'>;
      errors?: PassportListCounts['errors'];
    }
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
