import { Worker } from 'node:worker_threads';
import type {
  ListFile,
  ParseProgress,
  ParseReply,
  ParseRequest,
  ParseWorkerData,
} from './parse-thread-protocol.ts';
import type { PassportListCounts } from './passport-list-format.ts';
import { PassportListError } from './passport-list-format.ts';

const WORKER_URL = new URL('./parse-thread-worker.ts', import.meta.url);
/**
 * The parser keeps one unfinished line between chunks and the keys are typed arrays, off this heap;
 * the pure-JavaScript decoder (no system decoder installed) needs more for its garbage.
 */
const PARSE_HEAP_MB = 256;

/**
 * The list's file read, parsed and grouped (openListText, PassportListParser, ListKeyStore) in a
 * worker thread of its own, run as background work (SCHED_IDLE, else nice JOBS_DB_NICE;
 * lib/thread-priority.ts): reading the decoder's output, the parse and the grouping of a hundred
 * million rows are the import's CPU work in the app process, and on the main thread they kept a
 * core at the API's priority while checks looked passports up (docs/performance.md, «MVD passport
 * list»). load() reads the whole file, its progress told as it goes; then nextRows() hands over the
 * version table's rows as binary COPY. A file refused rejects with PassportListError.
 */
export class PassportListParseThread {
  readonly counts: PassportListCounts = { rows: 0, accepted: 0, rejected: 0, errors: [] };
  /** Distinct passports of the rows handed over so far (all of them after the last piece). */
  distinct = 0;
  /** Compressed bytes of the file read so far. */
  bytesRead = 0;
  private onProgress: (() => void) | undefined;
  /** Requests sent and not yet answered, oldest first: the worker answers them in order. */
  private readonly pending: ((reply: ParseReply) => void)[] = [];
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
    worker.on('message', (reply: ParseReply | ParseProgress) => {
      if (reply.type === 'progress') {
        this.progressed(reply);
        this.onProgress?.();
      } else {
        this.deliver(reply);
      }
    });
    worker.on('error', (error) => this.die(error));
    worker.on('exit', () => this.die(new Error('the passport list parse thread exited')));
  }

  /** `spillPath`: the prefix of the keys' spill files (`<prefix>.keys-<n>`, removed by the caller). */
  static async open(
    nice: number,
    spillPath: string,
    options: { capacity?: number } = {},
  ): Promise<PassportListParseThread> {
    const data: ParseWorkerData = { nice, spillPath, capacity: options.capacity };
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

  /** The whole file read and its passports kept; `onProgress` is told after each progress. */
  async load(file: ListFile, onProgress?: () => void): Promise<void> {
    this.onProgress = onProgress;
    try {
      const reply = await this.request({ type: 'load', file });
      if (reply.type !== 'loaded') {
        throw new Error(`unexpected reply ${reply.type}`);
      }
      this.progressed(reply);
    } finally {
      this.onProgress = undefined;
    }
  }

  /**
   * The next piece of the version table's rows (binary COPY of `block, numbers`, in block order),
   * null after the last; `distinct` then counts the list's passports.
   */
  async nextRows(): Promise<Buffer | null> {
    const reply = await this.request({ type: 'rows' });
    if (reply.type !== 'rows') {
      throw new Error(`unexpected reply ${reply.type}`);
    }
    this.distinct = reply.distinct;
    return reply.done ? null : Buffer.from(reply.out.buffer, reply.out.byteOffset, reply.out.byteLength);
  }

  async close(): Promise<void> {
    this.dead ??= new Error('the passport list parse thread was closed');
    await this.worker.terminate();
  }

  private progressed(reply: Omit<ParseProgress, 'type'>) {
    this.bytesRead = reply.bytesRead;
    Object.assign(this.counts, reply.counts);
    if (reply.errors) {
      this.counts.errors.push(...reply.errors);
    }
  }

  private async request(request: ParseRequest, transfer: ArrayBuffer[] = []): Promise<ParseReply> {
    if (this.dead) {
      throw this.dead;
    }
    const reply = await new Promise<ParseReply>((resolve) => {
      this.pending.push(resolve);
      this.worker.postMessage(request, transfer);
    });
    if (reply.type === 'error') {
      throw reply.listError ? new PassportListError(reply.message) : new Error(reply.message);
    }
    return reply;
  }

  private deliver(reply: ParseReply) {
    this.pending.shift()?.(reply);
  }

  private die(error: Error) {
    if (this.dead) {
      return;
    }
    this.dead = error;
    while (this.pending.length > 0) {
      this.deliver({ type: 'error', listError: false, message: error.message });
    }
  }
}
