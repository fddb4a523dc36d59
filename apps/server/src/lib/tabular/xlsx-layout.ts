/**
 * The layout every XLSX export shares: the header row frozen and filterable, dates as real Excel dates.
 * Excel dates carry no time zone, so a cell holds the Moscow wall-clock time (what the people reading
 * the file expect), written as that same clock time in UTC (exceljs turns a Date into a serial via UTC).
 */

/** How a date column is shown in Excel. */
export type XlsxDateKind = 'date' | 'datetime' | 'datetime-seconds';

export const XLSX_DATE_FORMATS: Record<XlsxDateKind, string> = {
  date: 'dd.mm.yyyy',
  datetime: 'dd.mm.yyyy hh:mm',
  'datetime-seconds': 'dd.mm.yyyy hh:mm:ss',
};

/** «A», …, «Z», «AA», … for a 1-based column number. */
export function columnLetter(column: number): string {
  let letters = '';
  for (let rest = column; rest > 0; rest = Math.floor((rest - 1) / 26)) {
    letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  }
  return letters;
}

/** Worksheet options: the header row frozen and an autofilter over it. */
export function tableSheetOptions(columnCount: number) {
  return {
    views: [{ state: 'frozen' as const, ySplit: 1 }],
    autoFilter: `A1:${columnLetter(Math.max(1, columnCount))}1`,
  };
}

/** A column wide enough for its header and the filter button beside it. */
export const headerFitWidth = (header: string, width: number) => Math.max(width, header.length + 4);

const RU_DATE = /^(\d{2})\.(\d{2})\.(\d{4})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/**
 * A Moscow date or date-time as written in our files («31.03.2026», «31.03.2026 14:05[:09]») or an
 * ISO date («2026-03-31») → the Date to store so that Excel shows exactly that wall clock; null when
 * the text is not a date (left as text).
 */
export function excelWallClock(text: string): Date | null {
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const parts = iso ? [iso[3], iso[2], iso[1]] : RU_DATE.exec(text)?.slice(1);
  if (!parts) {
    return null;
  }
  const [day = 0, month = 0, year = 0, hour = 0, minute = 0, second = 0] = parts.map((part) =>
    Number(part ?? 0),
  );
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  // 31.02 and the like are not dates: keep the text as it was.
  return date.getUTCDate() === day && date.getUTCMonth() === month - 1 ? date : null;
}
