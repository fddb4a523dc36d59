/** One non-header record of an upload file, values in file column order. */
export interface FileRow {
  /** 1-based row number as the user sees it in Excel (the header is row 1 in a template file). */
  rowNumber: number;
  values: string[];
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
