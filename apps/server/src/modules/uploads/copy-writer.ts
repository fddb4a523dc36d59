import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

// Small enough that the buffered lines rarely outlive a young-generation collection: lines kept
// longer are promoted to the old generation, whose growth is what made the importing process's
// RSS grow with the file.
const FLUSH_AT = 64 * 1024;

/** COPY … FROM STDIN on its own connection, written in batches of lines with back-pressure. */
export class CopyWriter {
  private buffer = '';
  private readonly client: pg.PoolClient;
  private readonly stream: ReturnType<typeof copyFrom>;
  private failure: Error | null = null;
  private released = false;

  private constructor(client: pg.PoolClient, sql: string) {
    this.client = client;
    this.stream = client.query(copyFrom(sql));
    this.stream.on('error', (error: Error) => {
      this.failure = error;
    });
  }

  static async open(pool: pg.Pool, sql: string): Promise<CopyWriter> {
    return new CopyWriter(await pool.connect(), sql);
  }

  /**
   * Adds whole lines already in COPY text format (copy-text.ts; the reader thread builds them).
   * Returns a promise only when the buffer went out and the stream asked to wait: no promise per
   * batch on the hot path, the caller awaits the rare one.
   */
  writeText(lines: string): Promise<void> | null {
    this.buffer += lines;
    return this.buffer.length >= FLUSH_AT ? this.flush() : null;
  }

  private async flush(): Promise<void> {
    if (this.failure) {
      throw this.failure;
    }
    const chunk = this.buffer;
    this.buffer = '';
    if (chunk && !this.stream.write(chunk)) {
      await new Promise<void>((resolve, reject) => {
        const onError = (error: Error) => {
          this.stream.off('drain', onDrain);
          reject(error);
        };
        const onDrain = () => {
          this.stream.off('error', onError);
          resolve();
        };
        this.stream.once('drain', onDrain);
        this.stream.once('error', onError);
      });
    }
  }

  /** Ends the COPY and waits for the server to confirm it. */
  async finish(): Promise<void> {
    try {
      await this.flush();
      await new Promise<void>((resolve, reject) => {
        if (this.failure) {
          reject(this.failure);
          return;
        }
        this.stream.once('finish', resolve);
        this.stream.once('error', reject);
        this.stream.end();
      });
      this.release(false);
    } catch (error) {
      this.release(true);
      throw error;
    }
  }

  private release(destroy: boolean): void {
    if (!this.released) {
      this.released = true;
      this.client.release(destroy);
    }
  }

  /** Drops the COPY and the connection (nothing of it is committed). */
  abort(): void {
    if (!this.released) {
      this.stream.destroy();
      this.release(true);
    }
  }
}
