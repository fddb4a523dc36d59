import { createReadStream } from 'node:fs';
import { PassThrough, type Readable } from 'node:stream';
import unbzip2 from 'unbzip2-stream';
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

/**
 * The list's bytes as text, decompressed as a stream when the file is bzip2 (pure JavaScript,
 * unbzip2-stream: no native code, no external program); `onRead` is told the compressed bytes read
 * so far (the progress), and more than `maxBytes` of text refuses the file (a bzip2 bomb).
 */
export async function* openListText(options: {
  path: string;
  /** The name it was sent under: a `.bz2` that is not bzip2 is refused as such. */
  fileName?: string;
  maxBytes: number;
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
  if (bz2) {
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
