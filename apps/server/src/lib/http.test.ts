import { describe, expect, it } from 'vitest';
import { asciiFileName, attachment } from './http.ts';

describe('download file names', () => {
  it('gives clients without filename* a transliterated name, not underscores', () => {
    expect(asciiFileName('Проверка П-2026-000001.pdf')).toBe('Proverka P-2026-000001.pdf');
    expect(asciiFileName('объекты-мониторинга.csv')).toBe('obieekty-monitoringa.csv');
    expect(asciiFileName('Журнал «действий» Щёлково.xlsx')).toBe('Zhurnal _deistvii_ Shchelkovo.xlsx');
    expect(asciiFileName('a"b\\c.csv')).toBe('a_b_c.csv');
  });

  it('keeps the Russian name in filename* and only ASCII in filename', () => {
    const header = attachment('События 2026.csv');
    expect(header).toBe(
      `attachment; filename="Sobytiia 2026.csv"; filename*=UTF-8''${encodeURIComponent('События 2026.csv')}`,
    );
    expect(header).toMatch(/^[\x20-\x7e]*$/);
  });
});
