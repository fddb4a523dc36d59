import { type CsvLimits, CsvParser, type CsvRecord } from './csv-parser.ts';

/**
 * The one CSV reader of the server (uploads and dataset imports): the encoding and delimiter are
 * taken from the file's head, then the bytes are decoded and parsed chunk by chunk, so a file is never
 * held whole in memory and a cell never beyond the caps of CsvParser.
 */

/** Bytes read before the format is decided (encoding, delimiter). */
export const CSV_HEAD_BYTES = 64 * 1024;

export type CsvEncoding = 'utf-8' | 'windows-1251';
export type CsvDelimiter = ';' | ',' | '\t';

export interface CsvFormat {
  encoding: CsvEncoding;
  delimiter: CsvDelimiter;
}

const startsWith = (bytes: Uint8Array, signature: readonly number[]) =>
  signature.every((byte, index) => bytes[index] === byte);

/** UTF-8 when the sample is valid UTF-8 (with or without BOM), otherwise Windows-1251. */
export function detectEncoding(head: Uint8Array): { encoding: CsvEncoding; bom: boolean } {
  if (startsWith(head, [0xef, 0xbb, 0xbf])) {
    return { encoding: 'utf-8', bom: true };
  }
  try {
    // stream: true lets a multi-byte character cut at the end of the sample pass.
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return { encoding: 'utf-8', bom: false };
  } catch {
    return { encoding: 'windows-1251', bom: false };
  }
}

/** The delimiter that occurs most in the header line, outside quotes; `;` when none does. */
export function detectDelimiter(headerLine: string): CsvDelimiter {
  const counts = { ';': 0, ',': 0, '\t': 0 };
  let quoted = false;
  for (const char of headerLine) {
    if (char === '"') {
      quoted = !quoted;
    } else if (!quoted && (char === ';' || char === ',' || char === '\t')) {
      counts[char]++;
    }
  }
  const best = (Object.entries(counts) as [CsvDelimiter, number][]).sort((a, b) => b[1] - a[1])[0]!;
  return best[1] > 0 ? best[0] : ';';
}

/** The encoding from the head's bytes, the delimiter from its first line. */
export function detectCsvFormat(head: Uint8Array): CsvFormat {
  const { encoding } = detectEncoding(head);
  const firstLine = new TextDecoder(encoding).decode(head).split('\n', 1)[0] ?? '';
  return { encoding, delimiter: detectDelimiter(firstLine) };
}

/** The first `bytes` bytes of a stream (fewer when it is shorter), and the whole stream again. */
export async function readHead(
  source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  bytes = CSV_HEAD_BYTES,
): Promise<{ head: Uint8Array; chunks: AsyncIterable<Uint8Array> }> {
  const iterator = (
    Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]()
  ) as AsyncIterator<Uint8Array> | Iterator<Uint8Array>;
  const taken: Uint8Array[] = [];
  let length = 0;
  let done = false;
  while (length < bytes) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    taken.push(next.value);
    length += next.value.length;
  }
  const joined = Buffer.concat(taken);
  async function* chunks(): AsyncGenerator<Uint8Array> {
    if (joined.length > 0) {
      yield joined;
    }
    while (!done) {
      const next = await iterator.next();
      if (next.done) {
        return;
      }
      yield next.value;
    }
  }
  return { head: joined.subarray(0, bytes), chunks: chunks() };
}

/** Every record of the stream, the header included, decoded and parsed as they arrive. */
export async function* readCsvRecords(
  chunks: AsyncIterable<Uint8Array>,
  format: CsvFormat,
  limits?: CsvLimits,
): AsyncGenerator<CsvRecord> {
  // The default TextDecoder strips a UTF-8 BOM and keeps split multi-byte characters between chunks.
  const decoder = new TextDecoder(format.encoding);
  const parser = new CsvParser(format.delimiter, limits);
  for await (const chunk of chunks) {
    yield* parser.push(decoder.decode(chunk, { stream: true }));
  }
  yield* parser.push(decoder.decode());
  yield* parser.end();
}
