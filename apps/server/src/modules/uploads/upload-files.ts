import { PassThrough, Readable } from 'node:stream';
import { CSV_BOM, csvRow, neutralise, type UploadFormat } from '@pledgewatch/contract';
import ExcelJS from 'exceljs';
import {
  excelWallClock,
  headerFitWidth,
  tableSheetOptions,
  XLSX_DATE_FORMATS,
} from '../../lib/tabular/xlsx-layout.ts';

/** A table written as a file: CSV (UTF-8 with BOM, `;`, as Russian Excel expects) or XLSX, streamed. */
export function tableFile(options: {
  format: UploadFormat;
  sheetName: string;
  headers: readonly string[];
  rows: AsyncIterable<readonly string[]>;
  /** Columns kept as text in Excel (document numbers must keep leading zeros). */
  textColumns?: readonly number[];
  /** Columns of calendar dates («15.01.2025»): real date cells in Excel, not text. */
  dateColumns?: readonly number[];
}): Readable {
  // Cells echo what users uploaded: formula-like text is neutralised as the reports do (CSV injection).
  const rows = neutraliseRows(options.rows);
  if (options.format === 'csv') {
    return Readable.from(csvLines(options.headers, rows));
  }
  const output = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: output,
    useSharedStrings: false,
    useStyles: true,
  });
  const sheet = workbook.addWorksheet(options.sheetName, tableSheetOptions(options.headers.length));
  sheet.columns = options.headers.map((header) => ({ header, width: headerFitWidth(header, 14) }));
  sheet.getRow(1).font = { bold: true };
  const text = new Set(options.textColumns ?? []);
  const dates = new Set(options.dateColumns ?? []);
  (async () => {
    for await (const values of rows) {
      const row = sheet.addRow(
        values.map((value, column) => (dates.has(column) ? (excelWallClock(value) ?? value) : value)),
      );
      for (const column of text) {
        row.getCell(column + 1).numFmt = '@';
      }
      for (const column of dates) {
        row.getCell(column + 1).numFmt = XLSX_DATE_FORMATS.date;
      }
      row.commit();
    }
    sheet.commit();
    await workbook.commit();
  })().catch((error: Error) => output.destroy(error));
  return output;
}

async function* neutraliseRows(rows: AsyncIterable<readonly string[]>) {
  for await (const values of rows) {
    yield values.map(neutralise);
  }
}

async function* csvLines(headers: readonly string[], rows: AsyncIterable<readonly string[]>) {
  yield `${CSV_BOM}${csvRow(headers)}`;
  let batch = '';
  for await (const values of rows) {
    batch += csvRow(values);
    if (batch.length > 64 * 1024) {
      yield batch;
      batch = '';
    }
  }
  if (batch) {
    yield batch;
  }
}

export const contentTypeOf = (format: UploadFormat) =>
  format === 'csv'
    ? 'text/csv; charset=utf-8'
    : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
