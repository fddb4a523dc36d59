import type { IncomingHttpHeaders } from 'node:http';
import type { OutboundFailureKind, OutboundRequestOptions } from './outbound-request.ts';

/** A request the punctual thread sends at `dueAtMs` (epoch ms), or reports missed. */
export interface PunctualJob {
  id: number;
  url: string;
  /** Only operator-configured addresses (a trusted policy): the thread builds that policy itself. */
  options: Omit<OutboundRequestOptions, 'policy'>;
  dueAtMs: number;
  /** Later than this after dueAtMs, the request is not sent: `missed`. */
  lateLimitMs: number;
}

export type PunctualReply =
  | { id: 0; type: 'ready' }
  | { id: number; type: 'sent'; status: number; headers: IncomingHttpHeaders; body: Uint8Array }
  | { id: number; type: 'missed'; lateMs: number }
  | { id: number; type: 'failed'; kind: OutboundFailureKind | null; message: string };
