// The caps of the shared tabular reader (lib/tabular), which the XLSX reader applies too.
export { MAX_CELL_CHARS, MAX_COLUMNS } from '../../../lib/tabular/cell-limits.ts';

/** One non-header record of an upload file, values in file column order. */
export interface FileRow {
  /** 1-based row number as the user sees it in Excel (the header is row 1 in a template file). */
  rowNumber: number;
  /** At most MAX_COLUMNS values of at most MAX_CELL_CHARS characters each. */
  values: string[];
  /** 0-based columns whose value was longer than MAX_CELL_CHARS (cut), with their real length. */
  longCells?: ReadonlyMap<number, number> | null;
  /** Non-empty cells beyond MAX_COLUMNS (not read). */
  extraCells?: number;
}

/** A streaming reader over an upload file, whatever its format. */
export interface RowSource {
  format: 'csv' | 'xlsx';
  encoding: string | null;
  delimiter: string | null;
  /** The workbook's sheets (XLSX; a CSV has none) and the one read, 0-based. */
  sheets?: { index: number; name: string }[];
  sheet?: number;
  /** Every record, the header included; read once. */
  rows(): AsyncGenerator<FileRow>;
  /** Bytes of the file consumed so far (for progress). */
  bytesRead(): number;
  /** Bytes the reader will consume in total. */
  totalBytes: number;
  close(): Promise<void>;
}
