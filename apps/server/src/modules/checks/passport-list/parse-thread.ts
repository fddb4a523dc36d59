import { Worker } from 'node:worker_threads';
import type { ParseReply, ParseRequest, ParseWorkerData } from './parse-thread-protocol.ts';
import type { PassportListCounts } from './passport-list-format.ts';
import { PassportListError } from './passport-list-format.ts';

const WORKER_URL = new URL('./parse-thread-worker.ts', import.meta.url);
/** The parser keeps one unfinished line between chunks; this is room for a chunk and its output. */
const PARSE_HEAP_MB = 64;

/**
 * PassportListParser in a worker thread of its own, run as background work (SCHED_IDLE, else nice
 * JOBS_DB_NICE; lib/thread-priority.ts): the parse of a hundred million rows is the import's long
 * CPU task in the app process, and on the main thread it kept a core at the API's priority while
 * checks looked passports up (docs/performance.md, «MVD passport list»). One chunk at a time, in
 * order; the counts follow each reply. A file the parser refuses rejects with PassportListError.
 */
export class PassportListParseThread {
  readonly counts: PassportListCounts = { rows: 0, accepted: 0, rejected: 0, errors: [] };
  private pending: { resolve: (reply: ParseReply) => void } | null = null;
  private dead: Error | null = null;

  private readonly worker: Worker;
  /** The thread's kernel id and the priority it runs at (tests look at it). */
  readonly thread: { id: number | undefined; priority: 'idle' | 'nice' | 'none' };

  private constructor(
    worker: Worker,
    thread: { id: number | undefined; priority: 'idle' | 'nice' | 'none' },
  ) {
    this.worker = worker;
    this.thread = thread;
    worker.on('message', (reply: ParseReply) => this.deliver(reply));
    worker.on('error', (error) => this.die(error));
    worker.on('exit', () => this.die(new Error('the passport list parse thread exited')));
  }

  static async open(nice: number): Promise<PassportListParseThread> {
    const data: ParseWorkerData = { nice };
    const worker = new Worker(WORKER_URL, {
      workerData: data,
      resourceLimits: { maxOldGenerationSizeMb: PARSE_HEAP_MB, maxYoungGenerationSizeMb: 16 },
      stdout: false,
      stderr: false,
    });
    const ready = await new Promise<ParseReply>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    if (ready.type !== 'ready') {
      await worker.terminate();
      throw new Error('the passport list parse thread did not start');
    }
    return new PassportListParseThread(worker, { id: ready.threadId, priority: ready.priority });
  }

  /** The chunk's whole lines parsed: their good rows as COPY text. */
  push(chunk: Uint8Array): Promise<Buffer> {
    // A copy of its own to transfer (a stream's chunk may be a view of a larger, shared buffer).
    const copy = new Uint8Array(chunk);
    return this.request({ type: 'push', chunk: copy }, [copy.buffer]);
  }

  /** The last line; rejects with PassportListError when the file had no header. */
  end(): Promise<Buffer> {
    return this.request({ type: 'end' });
  }

  async close(): Promise<void> {
    this.dead ??= new Error('the passport list parse thread was closed');
    await this.worker.terminate();
  }

  private async request(request: ParseRequest, transfer: ArrayBuffer[] = []): Promise<Buffer> {
    if (this.dead) {
      throw this.dead;
    }
    if (this.pending) {
      throw new Error('the passport list parse thread takes one chunk at a time');
    }
    const reply = await new Promise<ParseReply>((resolve) => {
      this.pending = { resolve };
      this.worker.postMessage(request, transfer);
    });
    if (reply.type === 'error') {
      throw reply.listError ? new PassportListError(reply.message) : new Error(reply.message);
    }
    if (reply.type !== 'out') {
      throw new Error(`unexpected reply ${reply.type}`);
    }
    Object.assign(this.counts, reply.counts);
    if (reply.errors) {
      this.counts.errors.push(...reply.errors);
    }
    return Buffer.from(reply.out.buffer, reply.out.byteOffset, reply.out.byteLength);
  }

  private deliver(reply: ParseReply) {
    const pending = this.pending;
    this.pending = null;
    pending?.resolve(reply);
  }

  private die(error: Error) {
    if (this.dead) {
      return;
    }
    this.dead = error;
    this.deliver({ type: 'error', listError: false, message: error.message });
  }
}
