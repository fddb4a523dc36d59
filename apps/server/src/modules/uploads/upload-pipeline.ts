import { rm } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import type { AppConfig } from '../../config/env.ts';
import { withTransaction } from '../../db/pool.ts';
import { recordUploadRows, type UploadRowCounts } from '../../lib/metrics.ts';
import { timeSlicer } from '../../lib/time-slice.ts';
import { recordAudit } from '../audit/index.ts';
import { arrayLiteral, CopyWriter } from './copy-writer.ts';
import { headerMapOf } from './header/column-mapping.ts';
import { isBlank } from './header/find-header.ts';
import { isTotalsOrNote } from './header/table-end.ts';
import { TEMPLATE_EXAMPLE_MESSAGE, templateExampleMatcher } from './kinds/template-examples.ts';
import type { RowProblem, StagedSummary, UploadKindHandler } from './kinds/upload-kind.ts';
import { uploadKindHandler } from './kinds/upload-kinds.ts';
import { type FileRow, MAX_CELL_CHARS, type RowSource } from './reader/row-source.ts';
import { isUploadFileError, UploadFileError } from './reader/upload-file-error.ts';
import { headerDetails, openUploadFile, type PipelineContext, readHeader } from './upload-header.ts';
import {
  countStagedRows,
  deleteStagedRows,
  deleteUploadErrors,
  getUpload,
  type UploadRow,
  updateUpload,
} from './uploads.queries.ts';

/** Skipped rows (totals, notes) the preview lists. */
const SKIPPED_ROWS_SHOWN = 10;
const clipShown = (text: string) => {
  const clean = text.replaceAll('\0', '');
  return clean.length > 200 ? `${clean.slice(0, 200)}…` : clean;
};

/** Rows between two progress updates of the upload row. */
export const PROGRESS_EVERY = 5000;
/** Longest time between two looks at the upload's status while validating (a cancel stops the loop). */
const CANCEL_CHECK_MS = 500;
/** Work between two turns given back to the event loop (ms), so a big file never stalls other requests. */
const VALIDATION_SLICE_MS = 2;
/** What upload_errors keeps of each value: enough to recognise it, never a whole hostile cell. */
export const RAW_VALUE_CHARS = 500;

/** A value as the error rows keep it: at most RAW_VALUE_CHARS characters, and never a NUL. */
export const clipRawValue = (value: string) => {
  const clean = value.includes('\0') ? value.replaceAll('\0', '\uFFFD') : value;
  return clean.length > RAW_VALUE_CHARS ? `${clean.slice(0, RAW_VALUE_CHARS)}…` : clean;
};

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

/** The upload left «validating» under the loop (cancelled): stop, keep nothing. */
class ValidationStopped extends Error {}

export const uploadFilePath = (config: Pick<AppConfig, 'dataDir'>, uploadId: string) =>
  path.join(config.dataDir, 'uploads', uploadId);

/**
 * What the reader knows about a row before the kind's rules see it: a cell cut at MAX_CELL_CHARS
 * and a NUL (PostgreSQL text cannot hold one) each refuse the row with a message naming the column.
 */
function cellProblems(
  handler: UploadKindHandler,
  indexes: readonly number[],
  row: FileRow,
  values: Readonly<Record<string, string>>,
): RowProblem[] {
  const problems: RowProblem[] = [];
  handler.columns.forEach((column, i) => {
    const index = indexes[i]!;
    if (index < 0) {
      return;
    }
    if (row.longCells?.has(index)) {
      problems.push({
        field: column.field,
        message: `Значение в столбце «${column.title}» длиннее ${MAX_CELL_CHARS} символов`,
      });
    } else if (values[column.field]!.includes('\0')) {
      problems.push({
        field: column.field,
        message: `Значение в столбце «${column.title}» содержит недопустимый нулевой символ (NUL)`,
      });
    }
  });
  return problems;
}

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

  let source: RowSource | null = null;
  let staging: CopyWriter | null = null;
  let errors: CopyWriter | null = null;
  try {
    source = await openUploadFile(
      context.config,
      uploadFilePath(context.config, uploadId),
      upload.details.sheet ?? 0,
    );
    const read = await readHeader(handler, source.rows());
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
    const rows = read.rest;
    staging = await CopyWriter.open(
      db,
      `COPY ${handler.stagingTable} (upload_id, row_number, ${handler.stagingColumns.join(', ')}) FROM STDIN`,
    );
    errors = await CopyWriter.open(
      db,
      'COPY upload_errors (upload_id, row_number, field, message, raw) FROM STDIN',
    );
    const fields = handler.columns.map((column) => column.field);
    const indexes = fields.map((field) => header.indexOf.get(field) ?? -1);
    const implied = handler.impliedValues?.(
      new Map(header.columns.flatMap((column) => (column.header ? [[column.field, column.header]] : []))),
    );
    const impliedOf = fields.map((field) => implied?.[field] ?? '');
    const loaded = new Set(indexes.filter((index) => index >= 0));
    const identifiers = (handler.identifierFields ?? handler.keyFields)
      .map((field) => header.indexOf.get(field) ?? -1)
      .filter((index) => index >= 0);
    const isTemplateExample = templateExampleMatcher(handler, indexes);
    let total = 0;
    let rejected = 0;
    let staged = 0;
    let skipped = 0;
    const skippedRows: { rowNumber: number; text: string }[] = [];
    const slicer = timeSlicer(VALIDATION_SLICE_MS);
    let lookedAt = performance.now();
    // Progress is written only while the upload is still validating, and the status is looked at
    // between two progress steps too: a cancel stops the loop within CANCEL_CHECK_MS.
    const report = async () => {
      lookedAt = performance.now();
      const percent = Math.min(99, Math.floor((source!.bytesRead() / Math.max(1, source!.totalBytes)) * 100));
      const still = await updateUpload(
        db,
        uploadId,
        { rows_processed: total },
        { details: { percent }, fromStatuses: ['validating'] },
      );
      if (!still) {
        throw new ValidationStopped();
      }
    };
    const lookAtStatus = async () => {
      lookedAt = performance.now();
      if ((await getUpload(db, uploadId))?.status !== 'validating') {
        throw new ValidationStopped();
      }
    };
    for await (const row of rows) {
      await slicer.pause();
      if (isBlank(row.values)) {
        continue;
      }
      if (isTotalsOrNote(row.values, loaded, identifiers)) {
        skipped++;
        if (skippedRows.length < SKIPPED_ROWS_SHOWN) {
          const text = row.values.filter((value) => value.trim() !== '').join(' · ');
          skippedRows.push({ rowNumber: row.rowNumber, text: clipShown(text) });
        }
        continue;
      }
      total++;
      const values: Record<string, string> = {};
      for (let i = 0; i < fields.length; i++) {
        const index = indexes[i]!;
        const value = index >= 0 ? (row.values[index] ?? '') : '';
        values[fields[i]!] = value === '' ? impliedOf[i]! : value;
      }
      const problems = isTemplateExample(values)
        ? [{ field: null, message: TEMPLATE_EXAMPLE_MESSAGE }]
        : cellProblems(handler, indexes, row, values);
      const check: ReturnType<UploadKindHandler['validateRow']> =
        problems.length > 0 ? { ok: false, problems } : handler.validateRow(values);
      const rowNumber = String(row.rowNumber);
      let full: Promise<void> | null;
      if (check.ok) {
        staged++;
        full = staging.writeRow([uploadId, rowNumber, ...check.copyFields]);
      } else {
        rejected++;
        full = errors.writeRow([
          uploadId,
          rowNumber,
          check.problems[0]?.field ?? null,
          check.problems.map((problem) => problem.message).join('; '),
          arrayLiteral(fields.map((field) => clipRawValue(values[field] ?? ''))),
        ]);
      }
      if (full) {
        await full;
      }
      if (total % PROGRESS_EVERY === 0) {
        await report();
      } else if (performance.now() - lookedAt > CANCEL_CHECK_MS) {
        await lookAtStatus();
      }
    }
    await staging.finish();
    await errors.finish();
    if (total === 0) {
      throw new UploadFileError('В файле нет строк с данными — только заголовок');
    }
    // Nobody looks at the preview's counts of an auto-confirmed upload, and its import counts the
    // same again: a kind whose summary only counts skips it (a second pass over the staged rows).
    const summary: StagedSummary =
      upload.auto_confirm && handler.summaryOnlyCounts
        ? { staged, accepted: 0, restored: 0, duplicates: 0 }
        : await withTransaction(db, (tx) =>
            handler.summarise(tx, { uploadId, organisationId: upload.organisation_id }),
          );
    // A file with nothing to add (every row a duplicate or refused) has nothing to confirm: it ends
    // here with its counts instead of waiting for a confirmation that would import nothing.
    const nothingToAdd = !upload.auto_confirm && summary.accepted === 0 && summary.restored === 0;
    const refused = rejected + (summary.rejected ?? 0);
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
          rows_total: total,
          rows_processed: total,
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
            format: source!.format,
            encoding: source!.encoding,
            delimiter: source!.delimiter,
            columns: header.columns,
            ignoredColumns: header.ignored,
            skipped,
            skippedRows,
            ...(chosen ? {} : headerDetails(read, handler, read.proposal.columns)),
          },
          fromStatuses: ['validating'],
        },
      );
      if (moved && upload.auto_confirm) {
        await options.onValidated?.(tx, upload);
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
  } catch (error) {
    staging?.abort();
    errors?.abort();
    if (error instanceof ValidationStopped) {
      // Cancelled while validating: nothing of this attempt is kept.
      await deleteStagedRows(db, handler.stagingTable, uploadId);
      await deleteUploadErrors(db, uploadId);
      await removeFile(context, uploadId);
      return;
    }
    if (isUploadFileError(error)) {
      await deleteUploadErrors(db, uploadId);
      await failUpload(context, upload, error.message);
      return;
    }
    if (options.lastAttempt) {
      await failUpload(context, upload, VALIDATE_FAILED_MESSAGE);
    }
    throw error;
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
