import { createReadStream } from 'node:fs';
import { detectCsvFormat, readCsvRecords } from '../../../lib/tabular/csv-stream.ts';
import type { FileRow, RowSource } from './row-source.ts';

/** A CSV file in UTF-8 (with or without BOM) or Windows-1251, delimiter taken from the header line. */
export function openCsv(filePath: string, head: Uint8Array, size: number): RowSource {
  const format = detectCsvFormat(head);
  let consumed = 0;
  let stream: ReturnType<typeof createReadStream> | null = null;

  async function* counted(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    for await (const chunk of source) {
      consumed += chunk.length;
      yield chunk;
    }
  }

  async function* rows(): AsyncGenerator<FileRow> {
    stream = createReadStream(filePath, { highWaterMark: 64 * 1024 });
    let rowNumber = 0;
    for await (const record of readCsvRecords(counted(stream), format)) {
      yield { rowNumber: ++rowNumber, ...record };
    }
  }

  return {
    format: 'csv',
    encoding: format.encoding,
    delimiter: format.delimiter,
    rows,
    bytesRead: () => consumed,
    totalBytes: size,
    close: async () => {
      stream?.destroy();
    },
  };
}
