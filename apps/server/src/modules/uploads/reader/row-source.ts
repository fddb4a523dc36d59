/**
 * No template column takes more than a few hundred characters: a longer cell is cut here, in the
 * reader, and its row refused, so a hostile file's one huge cell never sits in memory or the database.
 */
export const MAX_CELL_CHARS = 1000;
/** Columns read per row; cells beyond are not read (the templates have 6 and about 30 columns). */
export const MAX_COLUMNS = 256;

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
  /** Every record, the header included; read once. */
  rows(): AsyncGenerator<FileRow>;
  /** Bytes of the file consumed so far (for progress). */
  bytesRead(): number;
  /** Bytes the reader will consume in total. */
  totalBytes: number;
  close(): Promise<void>;
}
