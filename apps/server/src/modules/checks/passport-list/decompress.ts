import { spawnSync } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { PassThrough, type Readable } from 'node:stream';
import unbzip2 from 'unbzip2-stream';
import { spawnBackground } from '../../../lib/thread-priority.ts';
import { PassportListError } from './passport-list-format.ts';

/** `BZh` and the block size digit: how every bzip2 stream begins. */
export const isBzip2 = (head: Uint8Array) =>
  head.length >= 4 &&
  head[0] === 0x42 &&
  head[1] === 0x5a &&
  head[2] === 0x68 &&
  head[3]! >= 0x31 &&
  head[3]! <= 0x39;

const BROKEN_BZIP2 = 'Архив bzip2 повреждён или обрезан: распакуйте его у себя и загрузите заново';

/** The first bytes of a file (to tell bzip2 from text). */
export async function readFileHead(path: string, bytes = 4): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of createReadStream(path, { start: 0, end: bytes - 1 })) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return Buffer.concat(chunks, size);
}

/** A decoder of bzip2 from Debian's packages, run as a child process. */
export type Bzip2Decoder = 'lbzip2' | 'bunzip2';
const DECODER_ARGS: Record<Bzip2Decoder, string[]> = { lbzip2: ['-dc'], bunzip2: ['-c'] };

let decodersFound: Bzip2Decoder[] | undefined;
/**
 * The system's bzip2 decoders, fastest first, asked once: `lbzip2` (package lbzip2) decodes the
 * blocks of one stream on every core, `bunzip2` (package bzip2, in the base system) on one.
 */
export function systemBzip2Decoders(): Bzip2Decoder[] {
  decodersFound ??= (['lbzip2', 'bunzip2'] as const).filter(
    (command) => spawnSync(command, ['--help'], { stdio: 'ignore' }).status === 0,
  );
  return decodersFound;
}

/**
 * A system decoder as a child process: the file in, the text out; a broken archive ends it with an
 * error. It takes the cores for most of the import, so it runs as background work (SCHED_IDLE
 * through `chrt`, else at nice JOBS_DB_NICE, in a scheduling group of its own at the lowest weight;
 * lib/thread-priority.ts spawnBackground): checks and the API keep the
 * cores they need, the import every cycle they leave idle.
 */
function decoderStream(decoder: Bzip2Decoder, file: Readable, nice: number): Readable {
  const child = spawnBackground(decoder, DECODER_ARGS[decoder], nice);
  const out = new PassThrough({ highWaterMark: 1024 * 1024 });
  file.on('error', (error) => out.destroy(error));
  child.stdin.on('error', () => {}); // the decoder gave up on the input: its exit code says why
  file.pipe(child.stdin);
  child.stdout.pipe(out, { end: false });
  let exited: number | null | undefined;
  let drained = false;
  const finish = () => {
    if (exited === undefined || !drained) {
      return;
    }
    if (exited === 0) {
      out.end();
    } else {
      out.destroy(new Error(`${decoder} exited with ${exited}`));
    }
  };
  child.stdout.on('end', () => {
    drained = true;
    finish();
  });
  child.on('exit', (code) => {
    exited = code;
    finish();
  });
  out.on('close', () => child.kill());
  return out;
}

/**
 * The list's bytes as text, decompressed as a stream when the file is bzip2; `onRead` is told the
 * compressed bytes read so far (the progress), and more than `maxBytes` of text refuses the file (a
 * bzip2 bomb). Decompressed by the fastest system decoder installed (systemBzip2Decoders) unless
 * `decoder` names one: the pure-JavaScript decoder (unbzip2-stream) is the fallback, at about half
 * bunzip2's speed and with a heap that grows with its garbage (docs/datasets.md).
 */
export async function* openListText(options: {
  path: string;
  /** The name it was sent under: a `.bz2` that is not bzip2 is refused as such. */
  fileName?: string;
  maxBytes: number;
  /** A decoder of its own (tests of each path); 'javascript': unbzip2-stream. */
  decoder?: Bzip2Decoder | 'javascript';
  /** The OS priority (nice) the decoder runs at; 0 by default (the file's head is read in a request). */
  nice?: number;
  onRead?: (bytes: number) => void;
}): AsyncGenerator<Buffer> {
  const bz2 = isBzip2(await readFileHead(options.path));
  const file = createReadStream(options.path, { highWaterMark: 1024 * 1024 });
  let read = 0;
  file.on('data', (chunk) => {
    read += chunk.length;
    options.onRead?.(read);
  });
  if (!bz2 && /\.bz2$/i.test(options.fileName ?? '')) {
    file.destroy();
    throw new PassportListError('Файл назван .bz2, но это не архив bzip2');
  }
  let stream: Readable = file;
  const decoder = options.decoder ?? systemBzip2Decoders()[0] ?? 'javascript';
  if (bz2 && decoder !== 'javascript') {
    stream = decoderStream(decoder, file, options.nice ?? 0);
  } else if (bz2) {
    // unbzip2-stream is an old-style stream: piped into a PassThrough to be read with for await.
    const inflate = unbzip2();
    const out = new PassThrough({ highWaterMark: 1024 * 1024 });
    file.on('error', (error) => out.destroy(error));
    inflate.on('error', (error: Error) => out.destroy(error));
    stream = file.pipe(inflate).pipe(out);
  }
  let text = 0;
  try {
    for await (const chunk of stream) {
      text += (chunk as Buffer).length;
      if (text > options.maxBytes) {
        throw new PassportListError(
          `Распакованный файл больше ${Math.floor(options.maxBytes / 1024 / 1024)} МБ (UPLOAD_MAX_UNZIPPED_BYTES)`,
        );
      }
      yield chunk as Buffer;
    }
  } catch (error) {
    if (error instanceof PassportListError || !bz2) {
      throw error;
    }
    throw new PassportListError(BROKEN_BZIP2);
  } finally {
    file.destroy();
    if (stream !== file) {
      stream.destroy();
    }
  }
}
