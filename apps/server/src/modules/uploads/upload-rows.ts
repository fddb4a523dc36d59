// The validation's row step: each data row of the file checked, then staged or kept as an error row.
import { timeSlicer } from '../../lib/time-slice.ts';
import { arrayLiteral, type CopyWriter } from './copy-writer.ts';
import type { headerMapOf } from './header/column-mapping.ts';
import { isBlank } from './header/find-header.ts';
import { isTotalsOrNote } from './header/table-end.ts';
import { TEMPLATE_EXAMPLE_MESSAGE, templateExampleMatcher } from './kinds/template-examples.ts';
import type { RowProblem, UploadKindHandler } from './kinds/upload-kind.ts';
import { type FileRow, MAX_CELL_CHARS, type RowSource } from './reader/row-source.ts';
import type { PipelineContext } from './upload-header.ts';
import { getUpload, updateUpload } from './uploads.queries.ts';

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

/** The upload left «validating» under the loop (cancelled): stop, keep nothing. */
export class ValidationStopped extends Error {}

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

export type HeaderMap = ReturnType<typeof headerMapOf>;

/** How the file's columns feed the kind's fields: their indexes, implied values, identifier columns. */
export function rowPlan(handler: UploadKindHandler, header: HeaderMap) {
  const fields = handler.columns.map((column) => column.field);
  const indexes = fields.map((field) => header.indexOf.get(field) ?? -1);
  const implied = handler.impliedValues?.(
    new Map(header.columns.flatMap((column) => (column.header ? [[column.field, column.header]] : []))),
  );
  return {
    fields,
    indexes,
    impliedOf: fields.map((field) => implied?.[field] ?? ''),
    loaded: new Set(indexes.filter((index) => index >= 0)),
    identifiers: (handler.identifierFields ?? handler.keyFields)
      .map((field) => header.indexOf.get(field) ?? -1)
      .filter((index) => index >= 0),
    isTemplateExample: templateExampleMatcher(handler, indexes),
  };
}
type RowPlan = ReturnType<typeof rowPlan>;

/** A data row's values by field (an empty cell takes its implied value) and the verdict on them. */
function checkRow(handler: UploadKindHandler, plan: RowPlan, row: FileRow) {
  const values: Record<string, string> = {};
  for (let i = 0; i < plan.fields.length; i++) {
    const index = plan.indexes[i]!;
    const value = index >= 0 ? (row.values[index] ?? '') : '';
    values[plan.fields[i]!] = value === '' ? plan.impliedOf[i]! : value;
  }
  const problems = plan.isTemplateExample(values)
    ? [{ field: null, message: TEMPLATE_EXAMPLE_MESSAGE }]
    : cellProblems(handler, plan.indexes, row, values);
  const check: ReturnType<UploadKindHandler['validateRow']> =
    problems.length > 0 ? { ok: false, problems } : handler.validateRow(values);
  return { values, check };
}

export interface RowCounts {
  total: number;
  rejected: number;
  staged: number;
  skipped: number;
  skippedRows: { rowNumber: number; text: string }[];
}

/**
 * Streams the data rows into the staging and errors COPYs, with progress every PROGRESS_EVERY rows.
 * Progress is written only while the upload is still validating, and the status is looked at
 * between two progress steps too: a cancel stops the loop within CANCEL_CHECK_MS.
 */
export async function stageRows(input: {
  db: PipelineContext['db'];
  uploadId: string;
  handler: UploadKindHandler;
  source: RowSource;
  rows: AsyncIterable<FileRow>;
  plan: RowPlan;
  staging: CopyWriter;
  errors: CopyWriter;
}): Promise<RowCounts> {
  const { db, uploadId, handler, source, plan, staging, errors } = input;
  const counts: RowCounts = { total: 0, rejected: 0, staged: 0, skipped: 0, skippedRows: [] };
  const slicer = timeSlicer(VALIDATION_SLICE_MS);
  let lookedAt = performance.now();
  const report = async () => {
    lookedAt = performance.now();
    const percent = Math.min(99, Math.floor((source.bytesRead() / Math.max(1, source.totalBytes)) * 100));
    const still = await updateUpload(
      db,
      uploadId,
      { rows_processed: counts.total },
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
  for await (const row of input.rows) {
    await slicer.pause();
    if (isBlank(row.values)) {
      continue;
    }
    if (isTotalsOrNote(row.values, plan.loaded, plan.identifiers)) {
      counts.skipped++;
      if (counts.skippedRows.length < SKIPPED_ROWS_SHOWN) {
        const text = row.values.filter((value) => value.trim() !== '').join(' · ');
        counts.skippedRows.push({ rowNumber: row.rowNumber, text: clipShown(text) });
      }
      continue;
    }
    counts.total++;
    const { values, check } = checkRow(handler, plan, row);
    const rowNumber = String(row.rowNumber);
    let full: Promise<void> | null;
    if (check.ok) {
      counts.staged++;
      full = staging.writeRow([uploadId, rowNumber, ...check.copyFields]);
    } else {
      counts.rejected++;
      full = errors.writeRow([
        uploadId,
        rowNumber,
        check.problems[0]?.field ?? null,
        check.problems.map((problem) => problem.message).join('; '),
        arrayLiteral(plan.fields.map((field) => clipRawValue(values[field] ?? ''))),
      ]);
    }
    if (full) {
      await full;
    }
    if (counts.total % PROGRESS_EVERY === 0) {
      await report();
    } else if (performance.now() - lookedAt > CANCEL_CHECK_MS) {
      await lookAtStatus();
    }
  }
  await staging.finish();
  await errors.finish();
  return counts;
}
