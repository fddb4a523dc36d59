import { describe, expect, it } from 'vitest';
import { pledgeEventsUpload } from '../../pledges/pledge-events-upload.ts';
import { itemsUpload } from '../kinds/items-upload.ts';
import type { FileRow } from '../reader/row-source.ts';
import { checkMapping, headerMapOf } from './column-mapping.ts';
import { findHeaderRow, headerSignature, proposeMapping, skippedAboveMessage } from './find-header.ts';
import { headerForms, headerLookup, normaliseHeader } from './header-names.ts';
import { isTotalsOrNote } from './table-end.ts';

const VIN = 'XTA210740Y1234565';
const itemsLookup = headerLookup(itemsUpload.columns);
const fieldOf = (header: string) => itemsLookup(header)?.field ?? null;

describe('normaliseHeader and headerForms', () => {
  it('folds case, «ё», punctuation, «№» and spaces', () => {
    expect(normaliseHeader('  № Договора* ')).toBe('номер договора');
    expect(normaliseHeader('ФИО  залогодателя:')).toBe('фио залогодателя');
    expect(normaliseHeader('Заёмщик')).toBe('заемщик');
    expect(normaliseHeader('VIN-код')).toBe('vin код');
  });

  it('reads a header with brackets whole, without them and by what they hold', () => {
    expect(headerForms('Идентификационный номер (VIN)')).toEqual([
      'идентификационный номер vin',
      'идентификационный номер',
      'vin',
    ]);
  });
});

describe('the synonym table (portfolio uploads)', () => {
  it.each([
    ['VIN', 'vin'],
    ['VIN-код', 'vin'],
    ['VIN (идентификационный номер)', 'vin'],
    ['Идентификационный номер (VIN)', 'vin'],
    ['ИН ТС', 'vin'],
    ['vin', 'vin'],
    ['Номер договора', 'contractNumber'],
    ['№ договора', 'contractNumber'],
    ['Номер договора залога', 'contractNumber'],
    ['Договор', 'contractNumber'],
    ['Залогодатель', 'pledgorName'],
    ['ФИО залогодателя', 'pledgorName'],
    ['Наименование залогодателя', 'pledgorName'],
    ['Серия и номер паспорта', 'number'],
    ['Паспорт', 'number'],
    ['ИНН', 'number'],
    ['ОГРН', 'number'],
    ['Метка', 'label'],
    ['Примечание', 'label'],
    ['Марка, модель', 'label'],
    ['Тип документа', 'documentType'],
  ])('«%s» → %s', (header, field) => {
    expect(fieldOf(header)).toBe(field);
  });

  it.each([
    '№ п/п',
    '№',
    'Номер',
    'Номер кузова',
    'Номер шасси',
    'Дата договора',
    'Дата договора залога',
    'Паспорт ТС',
    'VIN прицепа',
    'Тип залогодателя',
    'Филиал',
    'Сумма кредита',
    'ИНН банка',
  ])('near-miss «%s» matches nothing', (header) => {
    expect(fieldOf(header)).toBeNull();
  });

  it('tells the template title from a guess by synonym', () => {
    expect(itemsLookup('VIN')).toEqual({ field: 'vin', how: 'title' });
    expect(itemsLookup('VIN (идентификационный номер)')).toEqual({ field: 'vin', how: 'synonym' });
    expect(itemsLookup('Номер договора залога')).toEqual({ field: 'contractNumber', how: 'synonym' });
  });

  it('pledge-event uploads share the VIN and contract synonyms', () => {
    const lookup = headerLookup(pledgeEventsUpload.columns);
    expect(lookup('VIN (идентификационный номер)')?.field).toBe('vin');
    expect(lookup('Номер договора залога')?.field).toBe('contractNumber');
    expect(lookup('Дата договора')?.field).toBe('contractDate');
    expect(lookup('№ п/п')).toBeNull();
  });
});

const rows = (...lines: string[][]): FileRow[] => lines.map((values, i) => ({ rowNumber: i + 1, values }));
const BANK_HEADER = ['№ п/п', 'VIN (идентификационный номер)', 'Номер договора залога', 'ФИО залогодателя'];

describe('findHeaderRow', () => {
  it('finds the header under a title, a branch line and a blank row', () => {
    const file = rows(
      ['Реестр залогового имущества', '', '', ''],
      ['Филиал «Казанский»', '', '', ''],
      ['', '', '', ''],
      BANK_HEADER,
      ['1', VIN, 'ДЗ-1', 'Иванов Иван'],
    );
    expect(findHeaderRow(itemsUpload, file)).toEqual({ ok: true, index: 3, recognised: true });
    expect(skippedAboveMessage(4)).toBe('Строки 1–3 пропущены: заголовок найден в строке 4');
    expect(skippedAboveMessage(2)).toBe('Строка 1 пропущена: заголовок найден в строке 2');
    expect(skippedAboveMessage(1)).toBeNull();
  });

  it('prefers the row naming more fields, and on a tie the earlier one', () => {
    const file = rows(['Договор', ''], ['VIN', 'Метка'], ['VIN', 'Метка'], [VIN, 'x']);
    expect(findHeaderRow(itemsUpload, file)).toMatchObject({ ok: true, index: 1 });
  });

  it('takes the row above the data when no header is known, for the user to map', () => {
    const file = rows(['Отчёт', ''], ['Идент.', 'Модель'], [VIN, 'Лада']);
    expect(findHeaderRow(itemsUpload, file)).toEqual({ ok: true, index: 1, recognised: false });
  });

  it('refuses a header beyond row 30, a file of data only and a file with nothing known', () => {
    const low = rows(...Array.from({ length: 31 }, (_, i) => [`Примечание ${i + 1}`, '']), ['VIN', 'Метка']);
    const search = findHeaderRow(itemsUpload, low);
    expect(search).toEqual({
      ok: false,
      message:
        'Заголовок таблицы найден только в строке 32, а его ищут в первых 30 строках: удалите лишние строки над таблицей и загрузите файл ещё раз',
    });
    expect(findHeaderRow(itemsUpload, rows([VIN, 'Лада']))).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^Первая строка файла — данные, а не заголовки/),
    });
    expect(findHeaderRow(itemsUpload, rows(['Цвет', 'Размер'], ['красный', 'XL']))).toEqual({
      ok: false,
      message: itemsUpload.missingHeaderMessage,
    });
    expect(findHeaderRow(itemsUpload, rows(['', '']))).toEqual({
      ok: false,
      message: 'Файл пустой: в нём нет ни одной строки',
    });
  });
});

describe('proposeMapping and checkMapping', () => {
  const data = [
    ['1', VIN, 'ДЗ-1', 'Иванов'],
    ['2', 'Z94CB41AAER123456', 'ДЗ-2', 'Петров'],
    ['3', 'X9FMXXEEBMCB12345', 'ДЗ-3', 'Сидоров'],
    ['4', 'XW8ZZZ61ZCG012345', 'ДЗ-4', 'Смирнов'],
  ];
  const narrow = data.map((values) => values.slice(0, 3));

  it('maps a bank export by synonyms, with three samples a column and the unknown ones listed', () => {
    const proposal = proposeMapping(itemsUpload, BANK_HEADER, data);
    expect(proposal.question).toBeNull();
    expect(proposal.columns.map((c) => [c.header, c.field, c.match])).toEqual([
      ['№ п/п', null, null],
      ['VIN (идентификационный номер)', 'vin', 'synonym'],
      ['Номер договора залога', 'contractNumber', 'synonym'],
      ['ФИО залогодателя', 'pledgorName', 'synonym'],
    ]);
    expect(proposal.columns[1]!.samples).toEqual([VIN, 'Z94CB41AAER123456', 'X9FMXXEEBMCB12345']);
    const header = headerMapOf(itemsUpload, proposal.columns);
    expect(header.ignored).toEqual(['№ п/п']);
    expect(header.indexOf.get('contractNumber')).toBe(2);
  });

  it('asks when no identifier is found, and when two columns could be one field', () => {
    expect(proposeMapping(itemsUpload, ['Идент.', 'Договор'], narrow).question).toBe(
      'Не найден столбец «VIN» или «Номер документа»: укажите, что хранится в каждом столбце',
    );
    const twice = proposeMapping(itemsUpload, ['VIN', 'Договор', 'Номер договора'], narrow);
    expect(twice.question).toBe(
      'Столбцы «Договор», «Номер договора» похожи на одно поле «Номер договора»: выберите, какой загружать',
    );
    expect(twice.columns.map((c) => [c.field, c.ambiguous])).toEqual([
      ['vin', false],
      ['contractNumber', true],
      [null, true],
    ]);
  });

  it('checks a mapping: an identifier is required, a column or a field named twice is refused', () => {
    const { columns } = proposeMapping(itemsUpload, ['Идент.', 'Договор', 'Клиент'], narrow);
    expect(
      checkMapping(itemsUpload, columns, [
        { column: 0, field: 'vin' },
        { column: 2, field: 'pledgorName' },
      ]),
    ).toEqual({ ok: true, fields: ['vin', null, 'pledgorName'] });
    expect(checkMapping(itemsUpload, columns, [{ column: 1, field: 'contractNumber' }])).toEqual({
      ok: false,
      message:
        'Не выбран столбец «VIN» или «Номер документа»: без него строки загрузить нельзя. Ничего не загружено',
    });
    expect(
      checkMapping(itemsUpload, columns, [
        { column: 0, field: 'vin' },
        { column: 0, field: null },
      ]),
    ).toEqual({
      ok: false,
      message: 'Столбец «Идент.» указан в сопоставлении дважды: выберите для него одно поле',
    });
    expect(
      checkMapping(itemsUpload, columns, [
        { column: 0, field: 'vin' },
        { column: 1, field: 'label' },
        { column: 2, field: 'label' },
      ]),
    ).toEqual({
      ok: false,
      message: 'Поле «Метка» выбрано для двух столбцов: «Договор» и «Клиент» — оставьте один',
    });
    expect(checkMapping(itemsUpload, columns, [{ column: 7, field: 'vin' }])).toEqual({
      ok: false,
      message: 'Столбца № 8 в файле нет: в нём 3 столбцов',
    });
    expect(checkMapping(itemsUpload, columns, [{ column: 0, field: 'kind' }])).toMatchObject({ ok: false });
  });

  it('signs a header by its normalised names in order', () => {
    const a = headerSignature('items', ['VIN', '№ договора'], 2);
    expect(headerSignature('items', ['vin ', 'Номер  договора'], 2)).toBe(a);
    expect(headerSignature('items', ['№ договора', 'VIN'], 2)).not.toBe(a);
    expect(headerSignature('pledge_events', ['VIN', '№ договора'], 2)).not.toBe(a);
  });
});

describe('isTotalsOrNote', () => {
  const loaded = new Set([1, 2, 3]);
  it.each([
    [['Итого: 4 единицы', '', '', '']],
    [['', '', 'ВСЕГО', '12']],
    [['4', '', '', '']],
    [['Исполнитель: Петров П. П.', '', '', '']],
    [['', 'Итого', '', '4']],
  ])('%j is skipped', (values) => {
    expect(isTotalsOrNote(values, loaded, [1])).toBe(true);
  });

  it.each([[['5', VIN, 'ДЗ-5', 'Итого']], [['', '', 'ДЗ-5', 'Иванов']], [['', '', 'Итоговый договор', '']]])(
    '%j is data',
    (values) => {
      expect(isTotalsOrNote(values, loaded, [1])).toBe(false);
    },
  );
});
