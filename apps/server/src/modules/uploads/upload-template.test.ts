import { buffer } from 'node:stream/consumers';
import { UPLOAD_KIND_LABELS, UPLOAD_KINDS } from '@pledgewatch/contract';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { registerModules } from '../../wiring.ts';
import { uploadKindHandler } from './kinds/upload-kinds.ts';
import { uploadTemplateFile } from './uploads.service.ts';

registerModules();

describe.each(UPLOAD_KINDS)('the %s upload template', (kind) => {
  const handler = uploadKindHandler(kind);

  it('marks every column of dates as a date column', () => {
    // A date column not marked so would be written as text again: the title says what it holds.
    const dated = handler.columns.filter((column) => /дата|срок/i.test(column.title));
    expect(dated.filter((column) => !column.date).map((column) => column.title)).toEqual([]);
  });

  it('is a sheet named after the kind, example dates as real date cells and the rest as text', async () => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(
      (await buffer(uploadTemplateFile({ kind, format: 'xlsx' }).body)) as unknown as ExcelJS.Buffer,
    );
    const sheet = workbook.worksheets[0]!;
    expect(sheet.name).toBe(UPLOAD_KIND_LABELS[kind]);
    expect(sheet.rowCount).toBe(handler.templateRows.length + 1);
    handler.templateRows.forEach((example, index) => {
      const row = sheet.getRow(index + 2);
      handler.columns.forEach((column, at) => {
        const cell = row.getCell(at + 1);
        if (column.date) {
          const [day, month, year] = (example[at] ?? '').split('.').map(Number);
          const expected = example[at] ? new Date(Date.UTC(year!, month! - 1, day)) : null;
          expect(cell.value || null, column.title).toEqual(expected);
          expect(cell.numFmt).toBe('dd.mm.yyyy');
        } else {
          expect(cell.value ?? '', column.title).toBe(example[at]);
          expect(cell.numFmt).toBe('@');
        }
      });
    });
  });
});
