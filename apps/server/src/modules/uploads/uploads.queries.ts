import type { UploadKind, UploadStatus } from '@pledgewatch/contract';
import type { Queryable } from '../../db/pool.ts';
import type { FileColumn } from './header/find-header.ts';

export interface UploadDetails {
  format?: 'csv' | 'xlsx';
  encoding?: string | null;
  delimiter?: string | null;
  percent?: number;
  staged?: number;
  columns?: { field: string; title: string; header: string | null }[];
  ignoredColumns?: string[];
  /** The workbook's sheets and the one read (XLSX). */
  sheets?: { index: number; name: string }[];
  sheet?: number | null;
  /** The header's row in the file, and whether it was recognised by its names. */
  headerRow?: number;
  headerRecognised?: boolean;
  /** The header's fingerprint (header/find-header.ts headerSignature): a mapping is remembered by it. */
  signature?: string;
  /** The file's columns with the field each is loaded into: the mapping validation applies. */
  fileColumns?: FileColumn[];
  mappingSource?: 'auto' | 'remembered' | 'chosen';
  /** Why the user must map the columns (status needs_mapping). */
  mappingQuestion?: string | null;
  /** Totals lines and notes skipped, and the first of them. */
  skipped?: number;
  skippedRows?: { rowNumber: number; text: string }[];
}

export interface UploadRow {
  id: string;
  organisation_id: string;
  created_by: string | null;
  author_name: string | null;
  kind: UploadKind;
  file_name: string;
  file_size: number;
  status: UploadStatus;
  rows_total: number;
  rows_processed: number;
  rows_accepted: number;
  rows_duplicate: number;
  rows_rejected: number;
  rows_restored: number;
  auto_confirm: boolean;
  error_message: string | null;
  details: UploadDetails;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}

const UPLOAD_COLUMNS = `u.id, u.organisation_id, u.created_by, a.full_name AS author_name, u.kind, u.file_name,
  u.file_size, u.status, u.rows_total, u.rows_processed, u.rows_accepted, u.rows_duplicate, u.rows_rejected,
  u.rows_restored, u.auto_confirm, u.error_message, u.details, u.created_at, u.updated_at, u.finished_at`;

export async function insertUpload(
  db: Queryable,
  upload: {
    id: string;
    organisationId: string;
    userId: string | null;
    kind: UploadKind;
    fileName: string;
    fileSize: number;
    status: UploadStatus;
    autoConfirm: boolean;
    errorMessage?: string | null;
    details?: UploadDetails;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO uploads (id, organisation_id, created_by, kind, file_name, file_size, status, auto_confirm,
       error_message, details, finished_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, CASE WHEN $7 = 'failed' THEN now() END)`,
    [
      upload.id,
      upload.organisationId,
      upload.userId,
      upload.kind,
      upload.fileName,
      upload.fileSize,
      upload.status,
      upload.autoConfirm,
      upload.errorMessage ?? null,
      upload.details ?? {},
    ],
  );
}

/** One upload; without organisationId (jobs) any organisation's. */
export async function getUpload(
  db: Queryable,
  id: string,
  organisationId?: string,
  options: { forUpdate?: boolean } = {},
): Promise<UploadRow | undefined> {
  const { rows } = await db.query<UploadRow>(
    `SELECT ${UPLOAD_COLUMNS} FROM uploads u LEFT JOIN users a ON a.id = u.created_by
      WHERE u.id = $1 AND ($2::uuid IS NULL OR u.organisation_id = $2)${options.forUpdate ? ' FOR UPDATE OF u' : ''}`,
    [id, organisationId ?? null],
  );
  return rows[0];
}

export async function findUploads(
  db: Queryable,
  filter: { organisationId: string; kind?: UploadKind; status?: UploadStatus; limit: number; offset: number },
): Promise<{ items: UploadRow[]; total: number }> {
  const where = `u.organisation_id = $1 AND ($2::text IS NULL OR u.kind = $2) AND ($3::text IS NULL OR u.status = $3)`;
  const params = [filter.organisationId, filter.kind ?? null, filter.status ?? null];
  const [items, total] = await Promise.all([
    db.query<UploadRow>(
      `SELECT ${UPLOAD_COLUMNS} FROM uploads u LEFT JOIN users a ON a.id = u.created_by
        WHERE ${where} ORDER BY u.created_at DESC, u.id DESC LIMIT $4 OFFSET $5`,
      [...params, filter.limit, filter.offset],
    ),
    db.query<{ count: number }>(`SELECT count(*) AS count FROM uploads u WHERE ${where}`, params),
  ]);
  return { items: items.rows, total: total.rows[0]!.count };
}

export async function updateUpload(
  db: Queryable,
  id: string,
  fields: Partial<{
    status: UploadStatus;
    rows_total: number;
    rows_processed: number;
    rows_accepted: number;
    rows_duplicate: number;
    rows_rejected: number;
    rows_restored: number;
    error_message: string | null;
  }>,
  options: { details?: UploadDetails; finished?: boolean; fromStatuses?: UploadStatus[] } = {},
): Promise<boolean> {
  const entries = Object.entries(fields).filter(([, value]) => value !== undefined);
  // Column names come from the typed keys above, never from input.
  const sets = entries.map(([column], index) => `${column} = $${index + 2}`);
  const params: unknown[] = [id, ...entries.map(([, value]) => value)];
  if (options.details) {
    params.push(options.details);
    sets.push(`details = details || $${params.length}::jsonb`);
  }
  if (options.finished) {
    sets.push('finished_at = now()');
  }
  let guard = '';
  if (options.fromStatuses) {
    params.push(options.fromStatuses);
    guard = ` AND status = ANY($${params.length}::text[])`;
  }
  const { rowCount } = await db.query(
    `UPDATE uploads SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE id = $1${guard}`,
    params,
  );
  return (rowCount ?? 0) > 0;
}

export interface UploadErrorDbRow {
  row_number: number;
  field: string | null;
  message: string;
  raw: string[];
}

export async function findUploadErrors(
  db: Queryable,
  uploadId: string,
  page: { limit: number; offset: number },
): Promise<{ items: UploadErrorDbRow[]; total: number }> {
  const [items, total] = await Promise.all([
    db.query<UploadErrorDbRow>(
      `SELECT row_number, field, message, raw FROM upload_errors WHERE upload_id = $1
        ORDER BY row_number LIMIT $2 OFFSET $3`,
      [uploadId, page.limit, page.offset],
    ),
    db.query<{ count: number }>('SELECT count(*) AS count FROM upload_errors WHERE upload_id = $1', [
      uploadId,
    ]),
  ]);
  return { items: items.rows, total: total.rows[0]!.count };
}

/** Error rows after `afterRow`, for streaming the error file in batches. */
export async function nextUploadErrors(
  db: Queryable,
  uploadId: string,
  afterRow: number,
  limit: number,
): Promise<UploadErrorDbRow[]> {
  const { rows } = await db.query<UploadErrorDbRow>(
    `SELECT row_number, field, message, raw FROM upload_errors WHERE upload_id = $1 AND row_number > $2
      ORDER BY row_number LIMIT $3`,
    [uploadId, afterRow, limit],
  );
  return rows;
}

export async function deleteUploadErrors(db: Queryable, uploadId: string): Promise<void> {
  await db.query('DELETE FROM upload_errors WHERE upload_id = $1', [uploadId]);
}

/** `table` is a kind handler's constant staging table name, never input. */
export async function deleteStagedRows(db: Queryable, table: string, uploadId: string): Promise<void> {
  await db.query(`DELETE FROM ${table} WHERE upload_id = $1`, [uploadId]);
}

export async function countStagedRows(db: Queryable, table: string, uploadId: string): Promise<number> {
  const { rows } = await db.query<{ count: number }>(
    `SELECT count(*) AS count FROM ${table} WHERE upload_id = $1`,
    [uploadId],
  );
  return rows[0]!.count;
}

/** The mapping an organisation chose for files with this header, or null. */
export async function getRememberedMapping(
  db: Queryable,
  key: { organisationId: string; kind: UploadKind; signature: string },
): Promise<(string | null)[] | null> {
  const { rows } = await db.query<{ fields: (string | null)[] }>(
    `SELECT fields FROM upload_column_mappings WHERE organisation_id = $1 AND kind = $2 AND signature = $3`,
    [key.organisationId, key.kind, key.signature],
  );
  return rows[0]?.fields ?? null;
}

export async function rememberMapping(
  db: Queryable,
  mapping: {
    organisationId: string;
    kind: UploadKind;
    signature: string;
    fields: (string | null)[];
    userId: string | null;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO upload_column_mappings (organisation_id, kind, signature, fields, updated_by)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (organisation_id, kind, signature)
     DO UPDATE SET fields = excluded.fields, updated_by = excluded.updated_by, updated_at = now()`,
    [mapping.organisationId, mapping.kind, mapping.signature, JSON.stringify(mapping.fields), mapping.userId],
  );
}
