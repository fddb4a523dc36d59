import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import { CSV_BOM, csvRow, neutralise, type ReportEncoding } from '@pledgewatch/contract';
import ExcelJS from 'exceljs';
import PDFDocument from 'pdfkit';
import { registerPdfFonts } from '../../lib/pdf-fonts.ts';
import {
  excelWallClock,
  headerFitWidth,
  tableSheetOptions,
  XLSX_DATE_FORMATS,
  type XlsxDateKind,
} from '../../lib/tabular/xlsx-layout.ts';

/** One cell: text, a number, or empty. */
export type Cell = string | number | null;

export interface ReportColumn {
  header: string;
  /** Relative width (characters in XLSX; a share of the page in PDF). */
  width: number;
  /** Keep as text in Excel (identifiers with leading zeros). */
  text?: boolean;
  /** Points the column needs in the PDF so that its values do not wrap (VINs, dates). */
  pdfMinWidth?: number;
  /** A Moscow date or date-time written as text («31.03.2026 14:05»): a real date cell in XLSX. */
  date?: XlsxDateKind;
  /** The closed set of values the column shows (labels): the PDF column is wide enough for each word. */
  pdfValues?: readonly string[];
}

/** Measures text in a font («bold» for headers, «regular» for cells) at the table's size. */
export type PdfMeasure = (text: string, font: 'bold' | 'regular') => number;

const words = (text: string) => text.split(/\s+/).filter(Boolean);

/**
 * The narrowest each PDF column may be: its longest header word, and the longest word of its known
 * values, so that neither «Прочитано» nor «Критическая» is cut apart.
 */
export function pdfColumnFloors(
  columns: readonly ReportColumn[],
  measure: PdfMeasure,
  padding: number,
): number[] {
  return columns.map((column) => {
    const header = words(column.header).map((word) => measure(word, 'bold'));
    const values = (column.pdfValues ?? []).flatMap(words).map((word) => measure(word, 'regular'));
    return Math.max(0, ...header, ...values) + 2 * padding + 1;
  });
}

/**
 * PDF column widths: each at least its minimum, the rest of the page shared by relative width. A
 * column is never narrower than `floors[i]` (its longest header word), so words are not cut apart.
 */
export function pdfColumnWidths(
  columns: readonly ReportColumn[],
  tableWidth: number,
  floors: readonly number[] = [],
): number[] {
  const fixed = columns.reduce((sum, column) => sum + (column.pdfMinWidth ?? 0), 0);
  const share = columns.reduce((sum, column) => sum + (column.pdfMinWidth ? 0 : column.width), 0);
  const rest = Math.max(0, tableWidth - fixed);
  const wanted = columns.map((column) => column.pdfMinWidth ?? (column.width / share) * rest);
  // Raise the columns below their floor and take the difference from the others, proportionally.
  const raised = wanted.map((width, index) => Math.max(width, floors[index] ?? 0));
  const excess = raised.reduce((sum, width) => sum + width, 0) - tableWidth;
  if (excess <= 0) {
    return raised;
  }
  const slack = raised.reduce(
    (sum, width, index) =>
      sum + Math.max(0, width - Math.max(floors[index] ?? 0, columns[index]!.pdfMinWidth ?? 0)),
    0,
  );
  if (slack <= 0) {
    return raised;
  }
  return raised.map((width, index) => {
    const floor = Math.max(floors[index] ?? 0, columns[index]!.pdfMinWidth ?? 0);
    return width - (Math.max(0, width - floor) / slack) * Math.min(excess, slack);
  });
}

/** Rows come in batches (one cursor fetch each). */
export type RowBatches = AsyncIterable<Cell[][]>;

// ─── Windows-1251 ───────────────────────────────────────────────────────────────────────────

let cp1251: Map<number, number> | undefined;

/** Unicode code point → Windows-1251 byte, built once from the runtime's own decoder. */
function cp1251Table(): Map<number, number> {
  if (!cp1251) {
    cp1251 = new Map();
    const decoder = new TextDecoder('windows-1251');
    for (let byte = 0x80; byte <= 0xff; byte++) {
      const char = decoder.decode(Uint8Array.of(byte));
      if (char.length === 1 && char !== '\uFFFD') {
        cp1251.set(char.codePointAt(0)!, byte);
      }
    }
  }
  return cp1251;
}

/** Text in Windows-1251; characters it lacks become «?». */
export function encodeCp1251(text: string): Buffer {
  const table = cp1251Table();
  const bytes = Buffer.allocUnsafe(text.length);
  let length = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    bytes[length++] = code < 0x80 ? code : (table.get(code) ?? 0x3f);
  }
  return bytes.subarray(0, length);
}

// ─── CSV ────────────────────────────────────────────────────────────────────────────────────

/** CSV with `;` (what Excel in a Russian locale expects): UTF-8 with BOM, or Windows-1251. */
export function csvReport(options: {
  columns: readonly ReportColumn[];
  rows: RowBatches;
  encoding: ReportEncoding;
}): Readable {
  const encode = (text: string) =>
    options.encoding === 'windows-1251' ? encodeCp1251(text) : Buffer.from(text, 'utf8');
  async function* chunks() {
    const header = csvRow(options.columns.map((column) => column.header));
    yield encode(options.encoding === 'utf-8' ? `${CSV_BOM}${header}` : header);
    for await (const batch of options.rows) {
      let text = '';
      for (const row of batch) {
        text += csvRow(row);
      }
      yield encode(text);
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}

// ─── XLSX ───────────────────────────────────────────────────────────────────────────────────

const xlsxValue = (value: Cell) => (typeof value === 'string' ? neutralise(value) : value);

/** The cells of one row: dates of date columns as Excel dates (Moscow wall clock), text neutralised. */
function xlsxRowValues(columns: readonly ReportColumn[], values: readonly Cell[]) {
  return values.map((value, index) => {
    if (columns[index]?.date && typeof value === 'string') {
      return excelWallClock(value) ?? xlsxValue(value);
    }
    return xlsxValue(value);
  });
}

/**
 * XLSX through exceljs' streaming writer: rows are committed as they come and the next batch is read
 * only once the HTTP side has taken what was written (so memory holds about one batch).
 */
export function xlsxReport(options: {
  sheetName: string;
  columns: readonly ReportColumn[];
  rows: RowBatches;
}): Readable {
  const output = new PassThrough({ highWaterMark: 256 * 1024 });
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: output,
    useSharedStrings: false,
    useStyles: true,
  });
  // Header frozen and filterable; widths fit the header beside its filter button.
  const sheet = workbook.addWorksheet(options.sheetName, tableSheetOptions(options.columns.length));
  sheet.columns = options.columns.map((column) => ({
    header: column.header,
    width: headerFitWidth(column.header, column.width),
  }));
  sheet.getRow(1).font = { bold: true };
  const textColumns = options.columns.flatMap((column, index) => (column.text ? [index + 1] : []));
  const dateColumns = options.columns.flatMap((column, index) =>
    column.date ? [{ index: index + 1, numFmt: XLSX_DATE_FORMATS[column.date] }] : [],
  );
  (async () => {
    for await (const batch of options.rows) {
      if (output.destroyed) {
        // The download was cancelled: leaving the loop closes the cursor.
        return;
      }
      for (const values of batch) {
        const row = sheet.addRow(xlsxRowValues(options.columns, values));
        for (const column of textColumns) {
          row.getCell(column).numFmt = '@';
        }
        for (const column of dateColumns) {
          const cell = row.getCell(column.index);
          if (cell.value instanceof Date) {
            cell.numFmt = column.numFmt;
          }
        }
        row.commit();
      }
      while (output.writableNeedDrain && !output.destroyed) {
        await Promise.race([once(output, 'drain'), once(output, 'close')]);
      }
    }
    sheet.commit();
    await workbook.commit();
  })().catch((error: Error) => output.destroy(error));
  return output;
}

// ─── PDF ────────────────────────────────────────────────────────────────────────────────────

const GREY = '#555555';
const LINE = '#bbbbbb';

const PDF_PADDING = 1.5;
const PDF_FONT_SIZE = 6.5;

/** The widths of a PDF table's columns in this document's fonts, none narrower than its floor. */
export function pdfTableWidths(
  pdf: InstanceType<typeof PDFDocument>,
  columns: readonly ReportColumn[],
  tableWidth: number,
): number[] {
  const floors = pdfColumnFloors(
    columns,
    (text, font) => pdf.font(font).fontSize(PDF_FONT_SIZE).widthOfString(text),
    PDF_PADDING,
  );
  return pdfColumnWidths(columns, tableWidth, floors);
}

/** The room for text in a PDF cell of this width. */
export const pdfTextWidth = (columnWidth: number) => columnWidth - 2 * PDF_PADDING;

/** A landscape A4 table; at most `limit` rows, with a note when the report holds more. */
export function pdfReport(options: {
  title: string;
  subtitle: string;
  columns: readonly ReportColumn[];
  rows: RowBatches;
  total: number;
  limit: number;
  /** Shown above the table when rows were left out. */
  limitNote: string;
  emptyNote: string;
}): Readable {
  const pdf = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margins: { top: 28, bottom: 28, left: 24, right: 24 },
    bufferPages: false,
    info: { Title: options.title, Creator: 'Pledgewatch' },
  });
  registerPdfFonts(pdf);

  const left = pdf.page.margins.left;
  const tableWidth = pdf.page.width - left - pdf.page.margins.right;
  const padding = PDF_PADDING;
  const fontSize = PDF_FONT_SIZE;
  const widths = pdfTableWidths(pdf, options.columns, tableWidth);
  // Text wraps at spaces and hyphens; pdfkit splits a word only when it alone is wider than the column.
  const textOptions = (index: number) => ({ width: pdfTextWidth(widths[index]!), lineGap: 0 });

  const drawRow = (cells: string[], bold: boolean) => {
    pdf.font(bold ? 'bold' : 'regular').fontSize(fontSize);
    const height =
      Math.max(...cells.map((cell, index) => pdf.heightOfString(cell || ' ', textOptions(index)))) +
      2 * padding;
    if (pdf.y + height > pdf.page.height - pdf.page.margins.bottom) {
      pdf.addPage();
      if (!bold) {
        drawRow(
          options.columns.map((column) => column.header),
          true,
        );
        pdf.font('regular').fontSize(fontSize);
      }
    }
    const top = pdf.y;
    let x = left;
    cells.forEach((cell, index) => {
      pdf.fillColor('black').text(cell, x + padding, top + padding, textOptions(index));
      x += widths[index]!;
    });
    pdf
      .moveTo(left, top + height)
      .lineTo(left + tableWidth, top + height)
      .lineWidth(0.3)
      .strokeColor(LINE)
      .stroke();
    pdf.x = left;
    pdf.y = top + height;
  };

  (async () => {
    pdf.font('bold').fontSize(14).fillColor('black').text(options.title);
    pdf.font('regular').fontSize(9).fillColor(GREY).text(options.subtitle);
    if (options.total > options.limit) {
      pdf.moveDown(0.3).font('bold').fontSize(9).fillColor('#b00020').text(options.limitNote);
    }
    pdf.moveDown(0.6);
    drawRow(
      options.columns.map((column) => column.header),
      true,
    );
    let written = 0;
    for await (const batch of options.rows) {
      if (pdf.destroyed) {
        return;
      }
      for (const row of batch) {
        if (written >= options.limit) {
          break;
        }
        drawRow(
          row.map((cell) => (cell === null ? '' : String(cell))),
          false,
        );
        written++;
      }
    }
    if (written === 0) {
      pdf.moveDown().font('regular').fontSize(9).fillColor(GREY).text(options.emptyNote, left);
    }
    pdf.end();
  })().catch((error: Error) => pdf.destroy(error));
  return pdf as unknown as Readable;
}
