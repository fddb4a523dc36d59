import type { UploadKind, UploadPreviewRow } from '@pledgewatch/contract';
import type { Queryable } from '../../../db/pool.ts';
import type { FieldNames } from '../header/header-names.ts';

/**
 * A column of a kind's template and the other headers recognised for it (see header/header-names.ts);
 * `date` marks a calendar date (ДД.ММ.ГГГГ), written to the XLSX template as a real date cell.
 */
export type UploadColumn = FieldNames & { date?: true };

export interface RowProblem {
  field: string | null;
  message: string;
}

export type RowCheck = { ok: true; copyFields: (string | null)[] } | { ok: false; problems: RowProblem[] };

export interface StagedSummary {
  /** Accepted rows written to staging. */
  staged: number;
  /** Rows that will become new records. */
  accepted: number;
  restored: number;
  duplicates: number;
  /** Rows the kind refused after staging (moved to upload_errors by summarise), beyond the per-row ones. */
  rejected?: number;
}

export interface ImportResult {
  inserted: number;
  restored: number;
  duplicates: number;
}

/**
 * What differs between upload kinds (portfolio items now, pledge events next): the template, the
 * per-row rules, the staging table and the set-based import. Reading, progress, errors, the job
 * lifecycle and the history are shared by every kind.
 */
export interface UploadKindHandler {
  kind: UploadKind;
  columns: readonly UploadColumn[];
  /** The file must give one of these fields (the mapping step asks for one when none is found). */
  keyFields: readonly string[];
  /**
   * The fields that identify a row (default keyFields): a row without any of them that looks like
   * a totals line or a note is skipped (header/table-end.ts).
   */
  identifierFields?: readonly string[];
  /**
   * Values a row takes when its own cell is empty, implied by the file's headers (field → header):
   * a column headed «ИНН» holds INNs.
   */
  impliedValues?(headers: ReadonlyMap<string, string>): Readonly<Record<string, string>>;
  missingHeaderMessage: string;
  /** Example rows for the template, in column order. */
  templateRows: readonly (readonly string[])[];
  stagingTable: string;
  /** Staging columns after upload_id and row_number, in the order validateRow returns them. */
  stagingColumns: readonly string[];
  /**
   * Where a thread finds this kind's row rules (UploadRowRules): a module's URL and the name of its
   * export. An upload's validation reads its header and checks its rows in the reader thread
   * (reader/open-row-source.ts), which loads that module; a light module of the rules alone keeps
   * the thread's start short.
   */
  rowRulesModule: { url: string; exportName: string };
  /** Whether a record looks like data rather than a header (finds the header above the data). */
  looksLikeData(values: readonly string[]): boolean;
  validateRow(values: Readonly<Record<string, string>>): RowCheck;
  /**
   * summarise only counts (moves no rows, refuses none): an auto-confirmed upload, whose import
   * counts again, skips it. Its counts are then known when the import is done.
   */
  summaryOnlyCounts?: boolean;
  /** Runs in a transaction of its own (it may SET LOCAL). */
  summarise(db: Queryable, options: { uploadId: string; organisationId: string }): Promise<StagedSummary>;
  preview(db: Queryable, uploadId: string, limit: number): Promise<UploadPreviewRow[]>;
  /**
   * Work an import leaves for after its commit (the user already sees the rows): e.g. merging the
   * trigram index entries the import deferred. Runs outside any transaction.
   */
  afterImport?(db: Queryable): Promise<void>;
  /**
   * Work an import leaves for after its commit that results depend on (the statistics label
   * dictionary): runs before afterImport, and a failure fails the job, whose retry runs it again.
   */
  completeImport?(db: Queryable, options: { organisationId: string }): Promise<void>;
  /**
   * Runs right before the import transaction, committed on its own: what others must see while the
   * import runs (the items' range in the list's creation order).
   */
  beforeImport?(db: Queryable, options: { uploadId: string; organisationId: string }): Promise<void>;
  /** Moves the staged rows into place; runs inside the import transaction. */
  importStaged(
    tx: Queryable,
    options: { uploadId: string; organisationId: string; userId: string | null },
  ): Promise<ImportResult>;
}

/**
 * The part of a kind that reads a file: the header's recognition and each row's check. These run in
 * the reader thread, so they are plain functions of the row, with no database.
 */
export type UploadRowRules = Pick<
  UploadKindHandler,
  | 'kind'
  | 'columns'
  | 'keyFields'
  | 'identifierFields'
  | 'impliedValues'
  | 'missingHeaderMessage'
  | 'templateRows'
  | 'looksLikeData'
  | 'validateRow'
>;
