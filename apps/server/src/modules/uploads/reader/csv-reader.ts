import { createReadStream } from 'node:fs';
import { CsvParser } from './csv-parser.ts';
import type { FileRow, RowSource } from './row-source.ts';
import { detectDelimiter, detectEncoding } from './sniff.ts';

/** A CSV file in UTF-8 (with or without BOM) or Windows-1251, delimiter taken from the header line. */
export function openCsv(filePath: string, head: Uint8Array, size: number): RowSource {
  const { encoding } = detectEncoding(head);
  const headText = new TextDecoder(encoding).decode(head);
  const firstLine = headText.split('\n', 1)[0] ?? '';
  const delimiter = detectDelimiter(firstLine);
  let consumed = 0;
  let stream: ReturnType<typeof createReadStream> | null = null;

  async function* rows(): AsyncGenerator<FileRow> {
    // The default TextDecoder strips a UTF-8 BOM and keeps split multi-byte characters between chunks.
    const decoder = new TextDecoder(encoding);
    const parser = new CsvParser(delimiter);
    stream = createReadStream(filePath, { highWaterMark: 64 * 1024 });
    let rowNumber = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      consumed += chunk.length;
      for (const record of parser.push(decoder.decode(chunk, { stream: true }))) {
        yield { rowNumber: ++rowNumber, ...record };
      }
    }
    for (const record of [...parser.push(decoder.decode()), ...parser.end()]) {
      yield { rowNumber: ++rowNumber, ...record };
    }
  }

  return {
    format: 'csv',
    encoding,
    delimiter,
    rows,
    bytesRead: () => consumed,
    totalBytes: size,
    close: async () => {
      stream?.destroy();
    },
  };
}
