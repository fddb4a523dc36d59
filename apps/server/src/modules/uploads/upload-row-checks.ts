/**
 * The validation's row step: each data row of the file checked by its kind's rules and written as a
 * COPY line, to staging or to the error rows. Runs in the reader thread (reader/row-source-worker.ts),
 * so a big file's checks never take the API's thread: only these lines cross to it, a batch at a time.
 */
import { arrayLiteral, copyLine } from './copy-text.ts';
import { headerMapOf } from './header/column-mapping.ts';
import { type FileColumn, isBlank } from './header/find-header.ts';
import { isTotalsOrNote } from './header/table-end.ts';
import { TEMPLATE_EXAMPLE_MESSAGE, templateExampleMatcher } from './kinds/template-examples.ts';
import type { RowProblem, UploadRowRules } from './kinds/upload-kind.ts';
import { type FileRow, MAX_CELL_CHARS } from './reader/row-source.ts';

/** Skipped rows (totals, notes) the preview lists. */
export const SKIPPED_ROWS_SHOWN = 10;
const clipShown = (text: string) => {
  const clean = text.replaceAll('\0', '');
  return clean.length > 200 ? `${clean.slice(0, 200)}…` : clean;
};

/** What upload_errors keeps of each value: enough to recognise it, never a whole hostile cell. */
export const RAW_VALUE_CHARS = 500;

/** A value as the error rows keep it: at most RAW_VALUE_CHARS characters, and never a NUL. */
export const clipRawValue = (value: string) => {
  const clean = value.includes('\0') ? value.replaceAll('\0', '\uFFFD') : value;
  return clean.length > RAW_VALUE_CHARS ? `${clean.slice(0, RAW_VALUE_CHARS)}…` : clean;
};

/**
 * What the reader knows about a row before the kind's rules see it: a cell cut at MAX_CELL_CHARS
 * and a NUL (PostgreSQL text cannot hold one) each refuse the row with a message naming the column.
 */
function cellProblems(
  rules: UploadRowRules,
  indexes: readonly number[],
  row: FileRow,
  values: Readonly<Record<string, string>>,
): RowProblem[] {
  const problems: RowProblem[] = [];
  rules.columns.forEach((column, i) => {
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

/** How the file's columns feed the kind's fields: their indexes, implied values, identifier columns. */
export function rowPlan(rules: UploadRowRules, columns: FileColumn[]) {
  const header = headerMapOf(rules, columns);
  const fields = rules.columns.map((column) => column.field);
  const indexes = fields.map((field) => header.indexOf.get(field) ?? -1);
  const implied = rules.impliedValues?.(
    new Map(header.columns.flatMap((column) => (column.header ? [[column.field, column.header]] : []))),
  );
  return {
    fields,
    indexes,
    impliedOf: fields.map((field) => implied?.[field] ?? ''),
    loaded: new Set(indexes.filter((index) => index >= 0)),
    identifiers: (rules.identifierFields ?? rules.keyFields)
      .map((field) => header.indexOf.get(field) ?? -1)
      .filter((index) => index >= 0),
    isTemplateExample: templateExampleMatcher(rules, indexes),
  };
}
type RowPlan = ReturnType<typeof rowPlan>;

/** A data row's values by field (an empty cell takes its implied value) and the verdict on them. */
function checkRow(rules: UploadRowRules, plan: RowPlan, row: FileRow) {
  const values: Record<string, string> = {};
  for (let i = 0; i < plan.fields.length; i++) {
    const index = plan.indexes[i]!;
    const value = index >= 0 ? (row.values[index] ?? '') : '';
    values[plan.fields[i]!] = value === '' ? plan.impliedOf[i]! : value;
  }
  const problems = plan.isTemplateExample(values)
    ? [{ field: null, message: TEMPLATE_EXAMPLE_MESSAGE }]
    : cellProblems(rules, plan.indexes, row, values);
  const check: ReturnType<UploadRowRules['validateRow']> =
    problems.length > 0 ? { ok: false, problems } : rules.validateRow(values);
  return { values, check };
}

/** A batch of checked rows: their COPY lines and what they add to the upload's counts. */
export interface CheckedRows {
  /** Lines for COPY into the kind's staging table (upload_id, row_number, the kind's columns). */
  staging: string;
  /** Lines for COPY into upload_errors. */
  errors: string;
  total: number;
  staged: number;
  rejected: number;
  skipped: number;
  /** The skipped rows to list, SKIPPED_ROWS_SHOWN in all the batches together. */
  skippedRows: { rowNumber: number; text: string }[];
}

/** Checks the data rows of one upload, batch by batch, with the columns the upload maps. */
export class RowChecker {
  private readonly rules: UploadRowRules;
  private readonly plan: RowPlan;
  private readonly uploadId: string;
  private skippedShown = 0;

  constructor(rules: UploadRowRules, columns: FileColumn[], uploadId: string) {
    this.rules = rules;
    this.plan = rowPlan(rules, columns);
    this.uploadId = uploadId;
  }

  check(rows: readonly FileRow[]): CheckedRows {
    const { rules, plan, uploadId } = this;
    const out: CheckedRows = {
      staging: '',
      errors: '',
      total: 0,
      staged: 0,
      rejected: 0,
      skipped: 0,
      skippedRows: [],
    };
    for (const row of rows) {
      if (isBlank(row.values)) {
        continue;
      }
      if (isTotalsOrNote(row.values, plan.loaded, plan.identifiers)) {
        out.skipped++;
        if (this.skippedShown < SKIPPED_ROWS_SHOWN) {
          this.skippedShown++;
          const text = row.values.filter((value) => value.trim() !== '').join(' · ');
          out.skippedRows.push({ rowNumber: row.rowNumber, text: clipShown(text) });
        }
        continue;
      }
      out.total++;
      const { values, check } = checkRow(rules, plan, row);
      const rowNumber = String(row.rowNumber);
      if (check.ok) {
        out.staged++;
        out.staging += copyLine([uploadId, rowNumber, ...check.copyFields]);
      } else {
        out.rejected++;
        out.errors += copyLine([
          uploadId,
          rowNumber,
          check.problems[0]?.field ?? null,
          check.problems.map((problem) => problem.message).join('; '),
          arrayLiteral(plan.fields.map((field) => clipRawValue(values[field] ?? ''))),
        ]);
      }
    }
    return out;
  }
}
