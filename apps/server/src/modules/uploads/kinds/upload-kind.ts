import type { UploadKind, UploadPreviewRow } from '@pledgewatch/contract';
import type { Queryable } from '../../../db/pool.ts';

/** A column of a kind's template and the headers recognised for it (normalised, see normaliseHeader). */
export interface UploadColumn {
  field: string;
  title: string;
  aliases: readonly string[];
}

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
  /** The header must name at least one of these fields. */
  keyFields: readonly string[];
  missingHeaderMessage: string;
  /** Example rows for the template, in column order. */
  templateRows: readonly (readonly string[])[];
  stagingTable: string;
  /** Staging columns after upload_id and row_number, in the order validateRow returns them. */
  stagingColumns: readonly string[];
  /** Whether the first record looks like data rather than a header (for a clearer message). */
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
  /** Moves the staged rows into place; runs inside the import transaction. */
  importStaged(
    tx: Queryable,
    options: { uploadId: string; organisationId: string; userId: string | null },
  ): Promise<ImportResult>;
}

/** Lower case, ё → е, punctuation and extra spaces dropped: «№ Договора*» → «договора». */
export const normaliseHeader = (value: string) =>
  value
    .toLowerCase()
    .replaceAll('ё', 'е')
    .replace(/[^0-9a-zа-я]+/g, ' ')
    .trim();

export interface HeaderMap {
  /** field → file column index */
  indexOf: Map<string, number>;
  columns: { field: string; title: string; header: string | null }[];
  ignored: string[];
}

export function mapHeader(handler: UploadKindHandler, header: readonly string[]): HeaderMap | null {
  const lookup = new Map<string, string>();
  for (const column of handler.columns) {
    lookup.set(normaliseHeader(column.title), column.field);
    for (const alias of column.aliases) {
      lookup.set(normaliseHeader(alias), column.field);
    }
  }
  const indexOf = new Map<string, number>();
  const headers = new Map<string, string>();
  const ignored: string[] = [];
  header.forEach((cell, index) => {
    const text = cell.trim();
    if (text === '') {
      return;
    }
    const field = lookup.get(normaliseHeader(text));
    if (field && !indexOf.has(field)) {
      indexOf.set(field, index);
      headers.set(field, text);
    } else {
      // Kept in the upload's details (jsonb: no NUL) and shown back: a short, clean name.
      const name = text.replaceAll('\0', '');
      ignored.push(name.length > 100 ? `${name.slice(0, 100)}…` : name);
    }
  });
  if (!handler.keyFields.some((field) => indexOf.has(field))) {
    return null;
  }
  return {
    indexOf,
    columns: handler.columns.map((c) => ({
      field: c.field,
      title: c.title,
      header: headers.get(c.field) ?? null,
    })),
    ignored,
  };
}
