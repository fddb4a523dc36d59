import { describe, expect, it } from 'vitest';
import { PassportListError, PassportListParser } from './passport-list-format.ts';

/** Parses the text fed in the given chunk sizes; returns the COPY lines and the counts. */
function parse(text: string | Buffer, chunkSize = 7) {
  const parser = new PassportListParser();
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  const out: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += chunkSize) {
    out.push(parser.push(bytes.subarray(offset, offset + chunkSize)));
  }
  out.push(parser.end());
  return { keys: Buffer.concat(out).toString().split('\n').filter(Boolean), counts: parser.counts };
}

describe('the MVD list parser', () => {
  it('keeps leading zeros: 0304,012345 is 0304012345, never 304 12345', () => {
    for (const size of [1, 3, 11, 12, 4096]) {
      const { keys, counts } = parse(
        'PASSP_SERIES,PASSP_NUMBER\n0304,012345\n0000,000001\r\n9999,999999',
        size,
      );
      expect(keys).toEqual(['0304012345', '0000000001', '9999999999']);
      expect(counts).toMatchObject({ rows: 3, accepted: 3, rejected: 0 });
    }
  });

  it('skips and counts malformed rows with their row numbers (header is row 1), never refusing the file', () => {
    const { keys, counts } = parse(
      [
        'PASSP_SERIES,PASSP_NUMBER',
        '0101,000001', // 2
        '01AB,123456', // 3 letters
        '0101,12345', // 4 short
        '01011,123456', // 5 long series
        '0101;123456', // 6 another delimiter
        '', // 7 blank
        '0101,1234567', // 8 long number
        '"0101","123456"', // 9 quoted
        '0202,000002', // 10
      ].join('\n'),
    );
    expect(keys).toEqual(['0101000001', '0202000002']);
    expect(counts.rows).toBe(9);
    expect(counts.accepted).toBe(2);
    expect(counts.rejected).toBe(7);
    expect(counts.errors.map((error) => error.row)).toEqual([3, 4, 5, 6, 7, 8, 9]);
    expect(counts.errors[0]!.message).toBe(
      'ожидаются серия (4 цифры), запятая и номер (6 цифр), в строке — «01AB,123456»',
    );
    expect(counts.errors[4]!.message).toBe('пустая строка');
  });

  it('keeps the first 100 malformed rows, counts them all', () => {
    const lines = ['PASSP_SERIES,PASSP_NUMBER'];
    for (let i = 0; i < 250; i++) {
      lines.push(i % 2 ? 'bad' : `${String(i).padStart(4, '0')},000000`);
    }
    const { counts } = parse(`${lines.join('\n')}\n`, 64);
    expect(counts.rejected).toBe(125);
    expect(counts.errors).toHaveLength(100);
    expect(counts.errors[99]!.row).toBe(201);
  });

  it('reads a line longer than any row as one malformed row, and goes on', () => {
    const long = 'x'.repeat(100_000);
    const { keys, counts } = parse(`PASSP_SERIES,PASSP_NUMBER\n${long}\n1234,567890\n`, 1000);
    expect(keys).toEqual(['1234567890']);
    expect(counts.errors).toEqual([{ row: 2, message: expect.stringContaining('xxxx') }]);
  });

  it('accepts a BOM and the header in any case; refuses another header and an empty file in Russian', () => {
    expect(parse('\uFEFFpassp_series,passp_number\n1111,222222\n').keys).toEqual(['1111222222']);
    expect(() => parse('vin;record_id\nX,1\n')).toThrow(PassportListError);
    expect(() => parse('vin;record_id\nX,1\n')).toThrow(
      'Это не перечень недействительных паспортов МВД: первая строка должна быть «PASSP_SERIES,PASSP_NUMBER», в файле — «vin;record_id»',
    );
    expect(() => parse('')).toThrow('Файл пуст: нет ни заголовка, ни строк');
  });
});
