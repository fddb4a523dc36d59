import { describe, expect, it } from 'vitest';
import { MAX_CELL_CHARS } from './cell-limits.ts';
import { type CsvFormat, detectCsvFormat, readCsvRecords, readHead } from './csv-stream.ts';

const encoder = new TextEncoder();

/** The bytes cut at the given offsets, as a stream would deliver them. */
async function* pieces(bytes: Uint8Array, cuts: number[]): AsyncGenerator<Uint8Array> {
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    yield bytes.subarray(from, cut);
    from = cut;
  }
}

async function read(bytes: Uint8Array, cuts: number[], format?: CsvFormat): Promise<string[][]> {
  const { head, chunks } = await readHead(pieces(bytes, cuts), 16);
  const records: string[][] = [];
  for await (const record of readCsvRecords(chunks, format ?? detectCsvFormat(head))) {
    records.push(record.values);
  }
  return records;
}

// A quoted cell holding the delimiter, a doubled quote, a CRLF and two-byte Cyrillic letters.
const quoted = 'Залог; "старый"\r\nвторая строка';
const text = `vin;note;id\r\nAAA;"${quoted.replaceAll('"', '""')}";1\r\nBBB;простой;2\r\n`;

describe('the shared CSV stream reader', () => {
  it('reads a quoted field the same wherever a chunk boundary falls inside it, byte by byte', async () => {
    const bytes = encoder.encode(text);
    const expected = [
      ['vin', 'note', 'id'],
      ['AAA', quoted, '1'],
      ['BBB', 'простой', '2'],
    ];
    const start = bytes.indexOf(0x22); // the opening quote
    const end = bytes.lastIndexOf(0x22);
    for (let cut = start; cut <= end + 1; cut++) {
      expect(await read(bytes, [cut]), `cut at byte ${cut}`).toEqual(expected);
    }
    // And in one-byte chunks: every boundary at once, each Cyrillic letter split in two.
    const everyByte = Array.from({ length: bytes.length - 1 }, (_, index) => index + 1);
    expect(await read(bytes, everyByte)).toEqual(expected);
  });

  it('takes the encoding and delimiter from the head: UTF-8 with BOM, Windows-1251, tab', async () => {
    const bom = Uint8Array.of(0xef, 0xbb, 0xbf, ...encoder.encode('a,b\nя,"x,y"\n'));
    expect(detectCsvFormat(bom)).toEqual({ encoding: 'utf-8', delimiter: ',' });
    expect(await read(bom, [2])).toEqual([
      ['a', 'b'],
      ['я', 'x,y'],
    ]);
    // «имя\tзначение\nИван\tда» in Windows-1251.
    const cp1251 = Uint8Array.of(
      0xe8,
      0xec,
      0xff,
      0x09,
      0xe7,
      0xed,
      0xe0,
      0xf7,
      0xe5,
      0xed,
      0xe8,
      0xe5,
      0x0a,
      0xc8,
      0xe2,
      0xe0,
      0xed,
      0x09,
      0xe4,
      0xe0,
    );
    expect(detectCsvFormat(cp1251)).toEqual({ encoding: 'windows-1251', delimiter: '\t' });
    expect(await read(cp1251, [5, 13])).toEqual([
      ['имя', 'значение'],
      ['Иван', 'да'],
    ]);
  });

  it('caps a cell at the reader limit and reports its real length', async () => {
    const long = 'я'.repeat(MAX_CELL_CHARS + 5);
    const { head, chunks } = await readHead(pieces(encoder.encode(`a;b\n${long};x\n`), [100, 900]));
    const records = [];
    for await (const record of readCsvRecords(chunks, detectCsvFormat(head))) {
      records.push(record);
    }
    expect(records[1]!.values).toEqual(['я'.repeat(MAX_CELL_CHARS), 'x']);
    expect(records[1]!.longCells?.get(0)).toBe(MAX_CELL_CHARS + 5);
  });

  it('gives back the head and then the whole stream, also when it is shorter than the head', async () => {
    const bytes = encoder.encode('0123456789');
    const short = await readHead(pieces(bytes, [3]), 64);
    expect(new TextDecoder().decode(short.head)).toBe('0123456789');
    const long = await readHead(pieces(bytes, [3, 6]), 4);
    expect(new TextDecoder().decode(long.head)).toBe('0123');
    const all: number[] = [];
    for await (const chunk of long.chunks) {
      all.push(...chunk);
    }
    expect(new TextDecoder().decode(Uint8Array.from(all))).toBe('0123456789');
  });
});
