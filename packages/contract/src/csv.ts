/**
 * The one CSV writer of the server and the web: `;` between cells (what Excel in a Russian locale
 * expects), CRLF between rows, formula-like text neutralised. Pure TypeScript, no Node or DOM.
 */

export type CsvValue = string | number | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[";\r\n]/;

/**
 * A text cell that a spreadsheet would take for a formula (= + - @, or a tab / carriage return before
 * one) gets a leading apostrophe, so it is shown as the text it is (CSV injection).
 */
export const neutralise = (value: string): string => (FORMULA_START.test(value) ? `'${value}` : value);

/** One cell: empty for null, numbers as they are, text neutralised and quoted when it must be. */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) {
    return '';
  }
  if (typeof value === 'number') {
    return String(value);
  }
  const text = neutralise(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One row with its CRLF. */
export const csvRow = (values: readonly CsvValue[]): string => `${values.map(csvCell).join(';')}\r\n`;

/** The byte order mark that makes Excel read a UTF-8 CSV as UTF-8. */
export const CSV_BOM = '\uFEFF';
