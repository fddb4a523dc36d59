import type { PassportListCounts } from './passport-list-format.ts';

/** Messages between PassportListParseThread and its worker (parse-thread-worker.ts). */
export type ParseRequest = { type: 'push'; chunk: Uint8Array } | { type: 'end' };

export type ParseReply =
  | { type: 'ready'; threadId: number | undefined; priority: 'idle' | 'nice' | 'none' }
  | {
      type: 'out';
      out: Uint8Array;
      counts: Omit<PassportListCounts, 'errors'>;
      errors?: PassportListCounts['errors'];
    }
  | { type: 'error'; listError: boolean; message: string };

export interface ParseWorkerData {
  nice: number;
}
