import { describe, expect, it } from 'vitest';
import { extractIdentifiers } from './extract.ts';

const YEAR = { currentYear: 2026 };

const summary = (text: string) =>
  extractIdentifiers(text, YEAR).map((found) => [found.status, found.kind, found.value, found.line]);

describe('extractIdentifiers', () => {
  it('reads rows pasted from Excel, in order, with their line numbers', () => {
    const text = [
      '№\tVIN\tЗалогодатель\tИНН',
      '1\tXTA210990Y2765432\tИванов И. И.\t500100732259',
      '2\tWVWZZZ1JZXW000001\tООО «Ромашка»\t7728168971',
      '3\t1M8GDM9AXKP042788\t\t',
    ].join('\r\n');
    expect(summary(text)).toEqual([
      ['accepted', 'vin', 'XTA210990Y2765432', 2],
      ['accepted', 'inn', '500100732259', 2],
      ['accepted', 'vin', 'WVWZZZ1JZXW000001', 3],
      ['accepted', 'inn', '7728168971', 3],
      ['accepted', 'vin', '1M8GDM9AXKP042788', 4],
    ]);
  });

  it('keeps check-digit warnings on accepted VINs', () => {
    const [found] = extractIdentifiers('WVWZZZ1JZXW000001', YEAR);
    expect(found).toMatchObject({ status: 'accepted', kind: 'vin', raw: 'WVWZZZ1JZXW000001' });
    expect(found?.status === 'accepted' && found.warnings).toEqual([
      'VIN: контрольная цифра не совпадает (ожидалась 0) — для автомобилей, выпущенных для рынка РФ, это допустимо',
    ]);
  });

  it('finds company numbers in a letter, including «ИНН/КПП» pairs and glued labels', () => {
    const letter = [
      'Добрый день!',
      'Просим проверить залогодателя ООО «Ромашка», ИНН/КПП 7707083893/773601001,',
      'ОГРН 1027700132195, а также ИП Петров (ОГРНИП: 304500116000157).',
      'Поручитель: ИНН500100732259, автомобиль VIN хта210990y2765432.',
    ].join('\n');
    expect(summary(letter)).toEqual([
      ['accepted', 'inn', '7707083893', 2],
      ['accepted', 'ogrn', '1027700132195', 3],
      ['accepted', 'ogrnip', '304500116000157', 3],
      ['accepted', 'inn', '500100732259', 4],
      ['accepted', 'vin', 'XTA210990Y2765432', 4],
    ]);
  });

  it('returns each value once and remembers where it was repeated', () => {
    const text = 'XTA210990Y2765432\nxta210990y2765432; 7707083893\n7707083893 XTA210990Y2765432';
    const found = extractIdentifiers(text, YEAR);
    expect(found.map((item) => [item.kind, item.value, item.line, item.duplicateLines])).toEqual([
      ['vin', 'XTA210990Y2765432', 1, [2, 3]],
      ['inn', '7707083893', 2, [3]],
    ]);
  });

  it('rejects 17-character VIN look-alikes with the reason', () => {
    const text = 'XTA21099OY2765432\tXTA21099QY276543I';
    expect(extractIdentifiers(text, YEAR)).toEqual([
      {
        status: 'rejected',
        kind: 'vin',
        value: 'XTA21099OY2765432',
        raw: 'XTA21099OY2765432',
        line: 1,
        duplicateLines: [],
        reason: 'VIN: недопустимые символы I, O, Q (позиция 9: «O»)',
      },
      {
        status: 'rejected',
        kind: 'vin',
        value: 'XTA21099QY276543I',
        raw: 'XTA21099QY276543I',
        line: 1,
        duplicateLines: [],
        reason: 'VIN: недопустимые символы I, O, Q (позиции 9: «Q», 17: «I»)',
      },
    ]);
  });

  it('rejects a labelled number that fails its check, but skips unlabelled ones', () => {
    const text = 'ИНН 7707083894\nсчёт 7707083894, договор 1027700132196';
    expect(extractIdentifiers(text, YEAR)).toEqual([
      {
        status: 'rejected',
        kind: 'inn',
        value: '7707083894',
        raw: '7707083894',
        line: 1,
        duplicateLines: [],
        reason: 'ИНН: неверная контрольная сумма',
      },
    ]);
  });

  it('treats a 15-digit number under «ОГРН» as an OGRNIP', () => {
    expect(summary('ОГРН 304500116000157')).toEqual([['accepted', 'ogrnip', '304500116000157', 1]]);
  });

  it('does not take phone numbers for INNs even when the checksum happens to pass', () => {
    // 9161234567 passes the 10-digit INN check by chance.
    expect(summary('9161234567')).toEqual([['accepted', 'inn', '9161234567', 1]]);
    expect(summary('тел. 9161234567, телефон: +7 9161234567')).toEqual([]);
  });

  it('ignores words, short numbers, account numbers and 17-character non-VINs', () => {
    const text = [
      'Расчётный счёт 40702810938000012345, БИК 044525225, КПП 773601001',
      'предпринимательст 12345678901234567 ABCDEFGHJKLMNPRST',
      'Договор № 12/2024 от 01.02.2024 на сумму 1 500 000 руб.',
    ].join('\n');
    expect(extractIdentifiers(text, YEAR)).toEqual([]);
  });

  it('handles empty and blank input', () => {
    expect(extractIdentifiers('', YEAR)).toEqual([]);
    expect(extractIdentifiers(' \n\t\n', YEAR)).toEqual([]);
  });
});
