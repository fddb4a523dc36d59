import { describe, expect, it } from 'vitest';
import { CSV_BOM, csvCell, csvRow, neutralise } from './csv.ts';

describe('the shared CSV writer', () => {
  it('neutralises = + - @ tab and CR at the start only', () => {
    expect(['=1+2', '+7', '-5', '@SUM(A1)', '\t=1', '\r=1', 'a=b', '', 'Текст'].map(neutralise)).toEqual([
      "'=1+2",
      "'+7",
      "'-5",
      "'@SUM(A1)",
      "'\t=1",
      "'\r=1",
      'a=b',
      '',
      'Текст',
    ]);
    // Idempotent: a neutralised cell is not neutralised twice.
    expect(neutralise(neutralise('=1'))).toBe("'=1");
  });

  it('quotes a cell holding ; " CR or LF and doubles its quotes', () => {
    expect(csvCell('a;b')).toBe('"a;b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line\nnext')).toBe('"line\nnext"');
    expect(csvCell('cr\rhere')).toBe('"cr\rhere"');
    expect(csvCell('a,b')).toBe('a,b');
    expect(csvCell('Простой текст')).toBe('Простой текст');
  });

  it('neutralises before quoting, and leaves numbers and empty cells alone', () => {
    expect(csvCell('=HYPERLINK("http://x";"y")')).toBe(`"'=HYPERLINK(""http://x"";""y"")"`);
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(1.5)).toBe('1.5');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });

  it('writes a row with ; and CRLF', () => {
    expect(csvRow(['VIN', 'a;b', 3, null, '@x'])).toBe(`VIN;"a;b";3;;'@x\r\n`);
    expect(CSV_BOM).toBe('\uFEFF');
  });
});
