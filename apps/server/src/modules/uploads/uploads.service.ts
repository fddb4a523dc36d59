import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  UPLOAD_KIND_LABELS,
  UPLOAD_STATUS_LABELS,
  type Upload,
  type UploadDetail,
  type UploadErrorRow,
  type UploadErrorRowsResponse,
  type UploadFormat,
  type UploadKind,
  type UploadStatus,
  type UploadsResponse,
} from '@pledgewatch/contract';
import type pg from 'pg';
import type { AppConfig } from '../../config/env.ts';
import { withTransaction } from '../../db/pool.ts';
import type { JobQueue } from '../../jobs/job-definition.ts';
import { AppError } from '../../lib/app-error.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { skippedAboveMessage } from './header/find-header.ts';
import { importUploadJob } from './jobs/import-upload.job.ts';
import { validateUploadJob } from './jobs/validate-upload.job.ts';
import type { UploadColumn, UploadKindHandler } from './kinds/upload-kind.ts';
import { uploadKindHandler } from './kinds/upload-kinds.ts';
import { isUploadFileError } from './reader/upload-file-error.ts';
import { tableFile } from './upload-files.ts';
import { decideColumns, inspectUploadFile } from './upload-header.ts';
import { discardUploadWork, uploadFilePath } from './upload-pipeline.ts';
import { clipRawValue } from './upload-row-checks.ts';
import {
  findUploadErrors,
  findUploads as findUploadRows,
  getUpload as getUploadRow,
  insertUpload,
  nextUploadErrors,
  type UploadErrorDbRow,
  type UploadRow,
  updateUpload,
} from './uploads.queries.ts';

type UploadConfig = Pick<AppConfig, 'dataDir' | 'uploadMaxBytes' | 'uploadMaxUnzippedBytes'>;

const PREVIEW_ROWS = 20;

export function toUpload(row: UploadRow): Upload {
  const percent =
    row.status === 'received'
      ? null
      : row.status === 'validating'
        ? (row.details.percent ?? 0)
        : (row.details.percent ?? null);
  return {
    id: row.id,
    kind: row.kind,
    fileName: row.file_name,
    fileSize: row.file_size,
    format: row.details.format ?? null,
    encoding: row.details.encoding ?? null,
    delimiter: row.details.delimiter ?? null,
    status: row.status,
    statusLabel: UPLOAD_STATUS_LABELS[row.status],
    autoConfirm: row.auto_confirm,
    progress: { rowsProcessed: row.rows_processed, percent },
    counts: {
      rows: row.rows_total,
      accepted: row.rows_accepted,
      restored: row.rows_restored,
      duplicates: row.rows_duplicate,
      rejected: row.rows_rejected,
      skipped: row.details.skipped ?? 0,
    },
    errorMessage: row.error_message,
    author: row.created_by ? { id: row.created_by, fullName: row.author_name ?? '' } : null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    finishedAt: row.finished_at?.toISOString() ?? null,
  };
}

function toErrorRow(kind: UploadKind, row: UploadErrorDbRow): UploadErrorRow {
  const { columns } = uploadKindHandler(kind);
  return {
    rowNumber: row.row_number,
    field: row.field,
    message: row.message,
    values: Object.fromEntries(
      columns.map((column, index) => [column.field, clipRawValue(row.raw[index] ?? '')]),
    ),
  };
}

export async function requireUpload(
  db: pg.Pool | pg.PoolClient,
  auth: AuthContext,
  id: string,
): Promise<UploadRow> {
  const upload = await getUploadRow(db, id, auth.organisationId);
  if (!upload) {
    throw new AppError('UPLOAD_NOT_FOUND');
  }
  return upload;
}

const stripControl = (text: string) =>
  [...text].filter((char) => char.charCodeAt(0) >= 0x20 && char.charCodeAt(0) !== 0x7f).join('');

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} МБ`;

/**
 * Receives a file: streams it to DATA_DIR/uploads/<id> within the size limit, checks by content that
 * it is a CSV or XLSX with a recognisable header, then queues validation. A refused file is kept in
 * the history as failed with its reason, and the call answers with that reason.
 */
export async function createUpload(options: {
  db: pg.Pool;
  queue: JobQueue;
  config: UploadConfig;
  auth: AuthContext;
  kind: UploadKind;
  autoConfirm: boolean;
  file: { fileName: string; stream: Readable };
}): Promise<Upload> {
  const { db, config, auth, kind } = options;
  const handler = uploadKindHandler(kind);
  const id = randomUUID();
  const filePath = uploadFilePath(config, id);
  // Control characters (NUL above all: PostgreSQL text cannot hold it) are dropped from the name.
  const fileName = stripControl(options.file.fileName).trim().slice(0, 255) || 'file';
  await mkdir(path.dirname(filePath), { recursive: true });

  const refuse = async (code: 'UPLOAD_INVALID_FILE' | 'UPLOAD_TOO_LARGE', message: string, size: number) => {
    await rm(filePath, { force: true });
    await insertUpload(db, {
      id,
      organisationId: auth.organisationId,
      userId: auth.userId,
      kind,
      fileName,
      fileSize: size,
      status: 'failed',
      autoConfirm: options.autoConfirm,
      errorMessage: message,
    });
    return new AppError(code, { message });
  };

  let tooLarge = false;
  try {
    await pipeline(options.file.stream, createWriteStream(filePath));
    tooLarge = (options.file.stream as Readable & { truncated?: boolean }).truncated === true;
  } catch (error) {
    if ((error as { code?: string }).code !== 'FST_REQ_FILE_TOO_LARGE') {
      await rm(filePath, { force: true });
      throw error;
    }
    tooLarge = true;
  }
  if (tooLarge) {
    throw await refuse(
      'UPLOAD_TOO_LARGE',
      `Файл больше ${megabytes(config.uploadMaxBytes)}: разделите его на части и загрузите по очереди`,
      config.uploadMaxBytes,
    );
  }
  const size = (await stat(filePath)).size;
  let inspected: Awaited<ReturnType<typeof inspectUploadFile>>;
  try {
    inspected = await inspectUploadFile({ db, config }, handler, filePath);
  } catch (error) {
    if (isUploadFileError(error)) {
      throw await refuse('UPLOAD_INVALID_FILE', error.message, size);
    }
    await rm(filePath, { force: true });
    throw error;
  }

  await withTransaction(db, async (tx) => {
    const decided = await decideColumns(tx, { organisationId: auth.organisationId, handler, inspected });
    await insertUpload(tx, {
      id,
      organisationId: auth.organisationId,
      userId: auth.userId,
      kind,
      fileName,
      fileSize: size,
      status: decided.mappingQuestion ? 'needs_mapping' : 'received',
      autoConfirm: options.autoConfirm,
      details: decided,
    });
    if (!decided.mappingQuestion) {
      await options.queue.send(validateUploadJob, { uploadId: id }, { db: tx });
    }
  });
  return toUpload((await getUploadRow(db, id))!);
}

export async function findUploads(options: {
  db: pg.Pool;
  auth: AuthContext;
  page: number;
  pageSize: number;
  kind?: UploadKind;
  status?: UploadStatus;
}): Promise<UploadsResponse> {
  const { items, total } = await findUploadRows(options.db, {
    organisationId: options.auth.organisationId,
    kind: options.kind,
    status: options.status,
    limit: options.pageSize,
    offset: (options.page - 1) * options.pageSize,
  });
  return { items: items.map(toUpload), total };
}

export async function getUpload(options: {
  db: pg.Pool;
  auth: AuthContext;
  uploadId: string;
}): Promise<UploadDetail> {
  const upload = await requireUpload(options.db, options.auth, options.uploadId);
  const handler = uploadKindHandler(upload.kind);
  const [preview, errors] = await Promise.all([
    handler.preview(options.db, upload.id, PREVIEW_ROWS),
    findUploadErrors(options.db, upload.id, { limit: PREVIEW_ROWS, offset: 0 }),
  ]);
  return {
    ...toUpload(upload),
    columns:
      upload.details.columns ??
      handler.columns.map((column) => ({ field: column.field, title: column.title, header: null })),
    ignoredColumns: upload.details.ignoredColumns ?? [],
    headerRow: upload.details.headerRow ?? null,
    skippedAbove: upload.details.headerRow ? skippedAboveMessage(upload.details.headerRow) : null,
    sheets: upload.details.sheets ?? [],
    sheet: upload.details.sheet ?? null,
    fileColumns: upload.details.fileColumns ?? [],
    fields: handler.columns.map((column) => ({
      field: column.field,
      title: column.title,
      key: handler.keyFields.includes(column.field),
    })),
    mapping: {
      source: upload.details.mappingSource ?? 'auto',
      question: upload.status === 'needs_mapping' ? (upload.details.mappingQuestion ?? null) : null,
    },
    skippedRows: upload.details.skippedRows ?? [],
    preview,
    errors: errors.items.map((row) => toErrorRow(upload.kind, row)),
  };
}

export async function findUploadErrorRows(options: {
  db: pg.Pool;
  auth: AuthContext;
  uploadId: string;
  page: number;
  pageSize: number;
}): Promise<UploadErrorRowsResponse> {
  const upload = await requireUpload(options.db, options.auth, options.uploadId);
  const { items, total } = await findUploadErrors(options.db, upload.id, {
    limit: options.pageSize,
    offset: (options.page - 1) * options.pageSize,
  });
  return { items: items.map((row) => toErrorRow(upload.kind, row)), total };
}

/** validated → importing, and the import job, in one transaction. */
export async function confirmUpload(options: {
  db: pg.Pool;
  queue: JobQueue;
  auth: AuthContext;
  uploadId: string;
}): Promise<Upload> {
  return withTransaction(options.db, async (tx) => {
    const upload = await requireUpload(tx, options.auth, options.uploadId);
    const moved = await updateUpload(tx, upload.id, { status: 'importing' }, { fromStatuses: ['validated'] });
    if (!moved) {
      throw new AppError('UPLOAD_WRONG_STATUS', {
        message: `Подтвердить можно только проверенную загрузку; сейчас: «${UPLOAD_STATUS_LABELS[upload.status]}»`,
      });
    }
    await options.queue.send(importUploadJob, { uploadId: upload.id }, { db: tx });
    return toUpload((await getUploadRow(tx, upload.id))!);
  });
}

/** Where a cancel is accepted: every state before the import. */
const CANCELLABLE_STATUSES: UploadStatus[] = ['received', 'needs_mapping', 'validating', 'validated'];

export async function cancelUpload(options: {
  db: pg.Pool;
  config: UploadConfig;
  auth: AuthContext;
  uploadId: string;
}): Promise<Upload> {
  const upload = await requireUpload(options.db, options.auth, options.uploadId);
  // Any state before the import: a validation under way notices it and stops (validateUpload).
  const moved = await updateUpload(
    options.db,
    upload.id,
    { status: 'cancelled' },
    { fromStatuses: CANCELLABLE_STATUSES, finished: true },
  );
  if (!moved) {
    throw new AppError('UPLOAD_WRONG_STATUS', {
      message: `Отменить можно только загрузку, строки которой ещё не добавляются в портфель; сейчас: «${UPLOAD_STATUS_LABELS[upload.status]}»`,
    });
  }
  await discardUploadWork({ db: options.db, config: options.config }, upload);
  return toUpload((await getUploadRow(options.db, upload.id))!);
}

const ERROR_COLUMN = 'Ошибка';
const ROW_COLUMN = 'Строка';

/** The rejected rows as a file to fix and upload again: row number, the template's columns, the reason. */
export async function uploadErrorsFile(options: {
  db: pg.Pool;
  auth: AuthContext;
  uploadId: string;
  format: UploadFormat;
}): Promise<{ fileName: string; body: Readable }> {
  const upload = await requireUpload(options.db, options.auth, options.uploadId);
  const handler = uploadKindHandler(upload.kind);
  const { db } = options;
  async function* rows() {
    let after = 0;
    while (true) {
      const batch = await nextUploadErrors(db, upload.id, after, 5000);
      for (const row of batch) {
        yield [
          String(row.row_number),
          ...handler.columns.map((_, index) => clipRawValue(row.raw[index] ?? '')),
          row.message,
        ];
      }
      if (batch.length < 5000) {
        return;
      }
      after = batch.at(-1)!.row_number;
    }
  }
  const base = upload.file_name.replace(/\.[^.]+$/, '');
  return {
    fileName: `${base}-ошибки.${options.format}`,
    body: tableFile({
      format: options.format,
      sheetName: 'Ошибки',
      headers: [ROW_COLUMN, ...handler.columns.map((column) => column.title), ERROR_COLUMN],
      rows: rows(),
      textColumns: handler.columns.map((_, index) => index + 1),
    }),
  };
}

const columnIndexes = (handler: UploadKindHandler, keep: (column: UploadColumn) => boolean) =>
  handler.columns.flatMap((column, index) => (keep(column) ? [index] : []));

/** A kind's template: its sheet named after the kind, example dates as date cells, the rest as text. */
export function uploadTemplateFile(options: { kind: UploadKind; format: UploadFormat }): {
  fileName: string;
  body: Readable;
} {
  const handler = uploadKindHandler(options.kind);
  async function* rows() {
    yield* handler.templateRows;
  }
  return {
    fileName: `шаблон-загрузки.${options.format}`,
    body: tableFile({
      format: options.format,
      sheetName: UPLOAD_KIND_LABELS[options.kind],
      headers: handler.columns.map((column) => column.title),
      rows: rows(),
      textColumns: columnIndexes(handler, (column) => !column.date),
      dateColumns: columnIndexes(handler, (column) => Boolean(column.date)),
    }),
  };
}
