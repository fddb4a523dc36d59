// The upload's phases run by its jobs: validation (the file into staging) and import (staging into the portfolio).
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import type { AppConfig } from '../../config/env.ts';
import { withTransaction } from '../../db/pool.ts';
import { recordUploadRows, type UploadRowCounts } from '../../lib/metrics.ts';
import { recordAudit } from '../audit/index.ts';
import { CopyWriter } from './copy-writer.ts';
import { type HeaderMap, headerMapOf } from './header/column-mapping.ts';
import type { StagedSummary, UploadKindHandler } from './kinds/upload-kind.ts';
import { uploadKindHandler } from './kinds/upload-kinds.ts';
import type { CheckedRowSource } from './reader/open-row-source.ts';
import type { HeaderFound } from './reader/row-source-protocol.ts';
import { isUploadFileError, UploadFileError } from './reader/upload-file-error.ts';
import { headerDetails, openUploadChecks, type PipelineContext } from './upload-header.ts';
import { type RowCounts, stageRows, ValidationStopped } from './upload-rows.ts';
import {
  countStagedRows,
  deleteStagedRows,
  deleteUploadErrors,
  getUpload,
  type UploadRow,
  updateUpload,
} from './uploads.queries.ts';

export const VALIDATE_FAILED_MESSAGE =
  'Не удалось проверить файл из-за внутренней ошибки. Загрузите файл ещё раз';
export const IMPORT_FAILED_MESSAGE =
  'Не удалось добавить строки в портфель из-за внутренней ошибки. Ни одна строка не добавлена — загрузите файл ещё раз';
export const STAGING_LOST_MESSAGE =
  'Проверенные строки загрузки утеряны (сервер перезапускался). Ни одна строка не добавлена — загрузите файл ещё раз';

export const VALIDATE_QUARANTINED_MESSAGE =
  'Файл не удалось проверить: его обработка дважды прервала работу сервера, и больше она не повторяется. ' +
  'Ни одна строка не добавлена — проверьте файл (или сохраните его как CSV) и загрузите ещё раз';
export const IMPORT_QUARANTINED_MESSAGE =
  'Строки не удалось добавить в портфель: импорт дважды прервал работу сервера, и больше он не повторяется. ' +
  'Ни одна строка не добавлена — загрузите файл ещё раз';

export const uploadFilePath = (config: Pick<AppConfig, 'dataDir'>, uploadId: string) =>
  path.join(config.dataDir, 'uploads', uploadId);

async function removeFile(context: PipelineContext, uploadId: string) {
  await rm(uploadFilePath(context.config, uploadId), { force: true }).catch(() => {});
}

/** Marks the upload failed with a message for the user and drops its working rows. */
export async function failUpload(
  context: PipelineContext,
  upload: UploadRow,
  message: string,
): Promise<void> {
  const handler = uploadKindHandler(upload.kind);
  await withTransaction(context.db, async (tx) => {
    await deleteStagedRows(tx, handler.stagingTable, upload.id);
    await updateUpload(
      tx,
      upload.id,
      { status: 'failed', error_message: message },
      { finished: true, fromStatuses: ['received', 'needs_mapping', 'validating', 'validated', 'importing'] },
    );
  });
  await removeFile(context, upload.id);
}

/**
 * A quarantined upload job (its runs ended their process twice): the upload fails with `message`,
 * whatever phase before the import's commit it was in; an upload already imported stays as it is.
 */
export async function quarantineUpload(
  context: PipelineContext,
  uploadId: string,
  message: string,
): Promise<void> {
  const upload = await getUpload(context.db, uploadId);
  if (upload && ['received', 'validating', 'validated', 'importing'].includes(upload.status)) {
    await deleteUploadErrors(context.db, uploadId);
    await failUpload(context, upload, message);
  }
}

/** Counts the staged rows, then moves the upload on (validated, or importing when auto-confirmed). */
async function closeValidation(
  context: PipelineContext,
  input: {
    upload: UploadRow;
    handler: UploadKindHandler;
    source: CheckedRowSource;
    read: HeaderFound;
    header: HeaderMap;
    counts: RowCounts;
    onValidated?: (tx: pg.PoolClient, upload: UploadRow) => Promise<void>;
  },
): Promise<void> {
  const { db } = context;
  const { upload, handler, source, read, header, counts } = input;
  const uploadId = upload.id;
  const chosen = upload.details.fileColumns;
  // Nobody looks at the preview's counts of an auto-confirmed upload, and its import counts the
  // same again: a kind whose summary only counts skips it (a second pass over the staged rows).
  const summary: StagedSummary =
    upload.auto_confirm && handler.summaryOnlyCounts
      ? { staged: counts.staged, accepted: 0, restored: 0, duplicates: 0 }
      : await withTransaction(db, (tx) =>
          handler.summarise(tx, { uploadId, organisationId: upload.organisation_id }),
        );
  // A file with nothing to add (every row a duplicate or refused) has nothing to confirm: it ends
  // here with its counts instead of waiting for a confirmation that would import nothing.
  const nothingToAdd = !upload.auto_confirm && summary.accepted === 0 && summary.restored === 0;
  const refused = counts.rejected + (summary.rejected ?? 0);
  await withTransaction(db, async (tx) => {
    const moved = await updateUpload(
      tx,
      uploadId,
      {
        status: nothingToAdd
          ? refused > 0
            ? 'done_with_errors'
            : 'done'
          : upload.auto_confirm
            ? 'importing'
            : 'validated',
        rows_total: counts.total,
        rows_processed: counts.total,
        rows_accepted: summary.accepted,
        rows_restored: summary.restored,
        rows_duplicate: summary.duplicates,
        rows_rejected: refused,
        error_message: null,
      },
      {
        finished: nothingToAdd,
        details: {
          percent: 100,
          staged: summary.staged,
          format: source.format,
          encoding: source.encoding,
          delimiter: source.delimiter,
          columns: header.columns,
          ignoredColumns: header.ignored,
          skipped: counts.skipped,
          skippedRows: counts.skippedRows,
          ...(chosen ? {} : headerDetails(read, handler, read.proposal.columns)),
        },
        fromStatuses: ['validating'],
      },
    );
    if (moved && upload.auto_confirm) {
      await input.onValidated?.(tx, upload);
    }
    if (!moved) {
      throw new ValidationStopped();
    }
    if (nothingToAdd) {
      await deleteStagedRows(tx, handler.stagingTable, uploadId);
    }
  });
  if (nothingToAdd) {
    await removeFile(context, uploadId);
  }
}

/** A failed validation: a cancel keeps nothing, a bad file fails the upload with its reason. */
async function abandonValidation(
  context: PipelineContext,
  upload: UploadRow,
  error: unknown,
  lastAttempt: boolean,
): Promise<void> {
  const { db } = context;
  if (error instanceof ValidationStopped) {
    // Cancelled while validating: nothing of this attempt is kept.
    await deleteStagedRows(db, uploadKindHandler(upload.kind).stagingTable, upload.id);
    await deleteUploadErrors(db, upload.id);
    await removeFile(context, upload.id);
    return;
  }
  if (isUploadFileError(error)) {
    await deleteUploadErrors(db, upload.id);
    await failUpload(context, upload, error.message);
    return;
  }
  if (lastAttempt) {
    await failUpload(context, upload, VALIDATE_FAILED_MESSAGE);
  }
  throw error;
}

/**
 * Validation phase: streams the file through the kind's row rules into the staging table (COPY) and
 * the errors table (COPY), with progress every few thousand rows; then counts duplicates set-based.
 * Memory stays flat in the file size. `onValidated` runs in the closing transaction (auto-confirm).
 */
export async function validateUpload(
  context: PipelineContext,
  uploadId: string,
  options: { lastAttempt: boolean; onValidated?: (tx: pg.PoolClient, upload: UploadRow) => Promise<void> },
): Promise<void> {
  const { db } = context;
  const upload = await getUpload(db, uploadId);
  if (!upload || !['received', 'validating'].includes(upload.status)) {
    return;
  }
  const handler = uploadKindHandler(upload.kind);
  // A retried attempt starts over: whatever the last one staged is dropped.
  await deleteStagedRows(db, handler.stagingTable, uploadId);
  await deleteUploadErrors(db, uploadId);
  const begun = await updateUpload(
    db,
    uploadId,
    { status: 'validating', rows_processed: 0 },
    { details: { percent: 0 }, fromStatuses: ['received', 'validating'] },
  );
  if (!begun) {
    // Cancelled since it was read.
    return;
  }

  let source: CheckedRowSource | null = null;
  let staging: CopyWriter | null = null;
  let errors: CopyWriter | null = null;
  try {
    // The validation is a job: its parse and its row checks give way to the API's requests (JOBS_DB_NICE).
    source = await openUploadChecks(context.config, uploadFilePath(context.config, uploadId), {
      sheet: upload.details.sheet ?? 0,
      backgroundNice: context.config.jobsDbNice ?? 0,
      handler,
    });
    const read = source.header;
    // The mapping decided when the file came (auto, remembered or chosen); a file queued before
    // mappings existed takes the proposal, or waits for the user when it is unsure.
    const chosen = upload.details.fileColumns;
    if (!chosen && read.proposal.question) {
      await updateUpload(
        db,
        uploadId,
        { status: 'needs_mapping' },
        {
          details: {
            ...headerDetails(read, handler, read.proposal.columns),
            mappingQuestion: read.proposal.question,
          },
          fromStatuses: ['validating'],
        },
      );
      return;
    }
    const header = headerMapOf(handler, chosen ?? read.proposal.columns);
    staging = await CopyWriter.open(
      db,
      `COPY ${handler.stagingTable} (upload_id, row_number, ${handler.stagingColumns.join(', ')}) FROM STDIN`,
    );
    errors = await CopyWriter.open(
      db,
      'COPY upload_errors (upload_id, row_number, field, message, raw) FROM STDIN',
    );
    const checked = source.checkedRows({ uploadId, columns: chosen ?? read.proposal.columns });
    const counts = await stageRows({ db, uploadId, source, checked, staging, errors });
    if (counts.total === 0) {
      throw new UploadFileError('В файле нет строк с данными — только заголовок');
    }
    await closeValidation(context, {
      upload,
      handler,
      source,
      read,
      header,
      counts,
      onValidated: options.onValidated,
    });
  } catch (error) {
    staging?.abort();
    errors?.abort();
    await abandonValidation(context, upload, error, options.lastAttempt);
  } finally {
    await source?.close();
  }
}

/**
 * Import phase, in one transaction: either every staged row lands (with the upload marked done and
 * its staging dropped) or none does. A failed attempt is retried; the last one marks the upload failed.
 * Returns the upload when this call imported (the caller runs completeImport and settleImport after
 * it), else null.
 */
export async function importUpload(
  context: PipelineContext,
  uploadId: string,
  options: { lastAttempt: boolean },
): Promise<UploadRow | null> {
  const { db } = context;
  const upload = await getUpload(db, uploadId);
  if (upload?.status !== 'importing') {
    return null;
  }
  // Set inside the transaction's callback (a cast keeps TypeScript from narrowing it to null).
  let imported = null as UploadRowCounts | null;
  const handler = uploadKindHandler(upload.kind);
  try {
    await handler.beforeImport?.(db, { uploadId, organisationId: upload.organisation_id });
    await withTransaction(db, async (tx) => {
      const locked = await getUpload(tx, uploadId, undefined, { forUpdate: true });
      if (locked?.status !== 'importing') {
        return;
      }
      const staged = await countStagedRows(tx, handler.stagingTable, uploadId);
      if (staged !== (locked.details.staged ?? 0)) {
        throw new UploadFileError(STAGING_LOST_MESSAGE);
      }
      const result = await handler.importStaged(tx, {
        uploadId,
        organisationId: locked.organisation_id,
        userId: locked.created_by,
      });
      await updateUpload(
        tx,
        uploadId,
        {
          status: locked.rows_rejected > 0 ? 'done_with_errors' : 'done',
          rows_accepted: result.inserted,
          rows_restored: result.restored,
          rows_duplicate: result.duplicates,
        },
        { finished: true },
      );
      await deleteStagedRows(tx, handler.stagingTable, uploadId);
      await recordAudit(tx, {
        organisationId: locked.organisation_id,
        userId: locked.created_by,
        action: 'upload.imported',
        entity: 'upload',
        entityId: uploadId,
        details: { kind: locked.kind, ...result },
      });
      imported = {
        accepted: result.inserted,
        restored: result.restored,
        duplicate: result.duplicates,
        rejected: locked.rows_rejected,
      };
    });
  } catch (error) {
    if (isUploadFileError(error)) {
      await failUpload(context, upload, error.message);
      return null;
    }
    if (options.lastAttempt) {
      await failUpload(context, upload, IMPORT_FAILED_MESSAGE);
    }
    throw error;
  }
  await removeFile(context, uploadId);
  if (imported) {
    recordUploadRows(upload.kind, imported);
  }
  return imported ? upload : null;
}

/** The upload when its import has committed (a retried job after a crash past the commit), else null. */
export async function importedUpload(context: PipelineContext, uploadId: string): Promise<UploadRow | null> {
  const upload = await getUpload(context.db, uploadId);
  return upload && ['done', 'done_with_errors'].includes(upload.status) ? upload : null;
}

/** After an upload's import committed: the deferred work results depend on. Throws for a retry. */
export async function completeImport(context: PipelineContext, upload: UploadRow): Promise<void> {
  await uploadKindHandler(upload.kind).completeImport?.(context.db, {
    organisationId: upload.organisation_id,
  });
}

/** After completeImport: the kind's deferred work that only makes things faster (index merges). */
export async function settleImport(context: PipelineContext, upload: UploadRow): Promise<void> {
  await uploadKindHandler(upload.kind).afterImport?.(context.db);
}

/** Drops what a cancelled or finished upload no longer needs. */
export async function discardUploadWork(context: PipelineContext, upload: UploadRow): Promise<void> {
  await deleteStagedRows(context.db, uploadKindHandler(upload.kind).stagingTable, upload.id);
  await removeFile(context, upload.id);
}
