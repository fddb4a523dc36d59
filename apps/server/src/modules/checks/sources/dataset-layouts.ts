import type { SourceType } from '@pledgewatch/contract';
import { type DocumentType, isDocumentType, validateDocument, validateVin } from '@pledgewatch/identifiers';
import { MAX_CELL_CHARS } from '../../../lib/tabular/cell-limits.ts';
import { detectCsvFormat, readCsvRecords, readHead } from '../../../lib/tabular/csv-stream.ts';
import type { DatasetRecord } from './sources.queries.ts';

/**
 * One column layout per source type (docs/datasets.md). The identifier columns locate the record,
 * the key column is its stable finding key, the other columns become the payload.
 */
export interface DatasetLayout {
  identifier: 'vin' | 'document';
  /** For document sources: the type when the file has no `document_type` column. */
  defaultDocumentType?: DocumentType;
  documentTypes?: readonly DocumentType[];
  /** Column holding the finding key; when optional and empty, the identifier is the key. */
  key: string;
  keyOptional?: boolean;
  required: readonly string[];
  optional: readonly string[];
  dates?: readonly string[];
  numbers?: readonly string[];
  enums?: Readonly<Record<string, readonly string[]>>;
}

const PERSON_DOCUMENTS = ['passport_rf', 'inn', 'ogrn', 'ogrnip'] as const;

export const DATASET_LAYOUTS: Readonly<Record<SourceType, DatasetLayout>> = {
  pledges: {
    identifier: 'vin',
    key: 'notice_number',
    required: ['status', 'registered_at', 'pledgee'],
    optional: ['pledgor', 'pledgee_inn', 'contract', 'note'],
    dates: ['registered_at'],
    enums: { status: ['active', 'changed', 'excluded'] },
  },
  wanted: {
    identifier: 'vin',
    key: 'record_id',
    required: ['since'],
    optional: ['region', 'initiator', 'note'],
    dates: ['since'],
  },
  restrictions: {
    identifier: 'vin',
    key: 'record_id',
    required: ['kind', 'imposed_at'],
    optional: ['imposed_by', 'basis', 'note'],
    dates: ['imposed_at'],
  },
  registration: {
    identifier: 'vin',
    key: 'record_id',
    required: ['operation', 'date'],
    optional: ['owner_type', 'region', 'note'],
    dates: ['date'],
  },
  accidents: {
    identifier: 'vin',
    key: 'record_id',
    required: ['date'],
    optional: ['region', 'kind', 'damage', 'note'],
    dates: ['date'],
  },
  bankruptcy: {
    identifier: 'document',
    documentTypes: PERSON_DOCUMENTS,
    key: 'case_number',
    required: ['status', 'opened_at'],
    optional: ['closed_at', 'court', 'debtor', 'note'],
    dates: ['opened_at', 'closed_at'],
    enums: { status: ['open', 'closed'] },
  },
  enforcement: {
    identifier: 'document',
    documentTypes: PERSON_DOCUMENTS,
    key: 'proceeding_number',
    required: ['status', 'opened_at'],
    optional: ['closed_at', 'amount', 'department', 'subject', 'debtor', 'note'],
    dates: ['opened_at', 'closed_at'],
    numbers: ['amount'],
    enums: { status: ['open', 'closed'] },
  },
  passport: {
    identifier: 'document',
    defaultDocumentType: 'passport_rf',
    documentTypes: ['passport_rf'],
    key: 'record_id',
    keyOptional: true,
    required: ['reason'],
    optional: ['since', 'note'],
    dates: ['since'],
  },
};

export interface RowError {
  row: number;
  message: string;
}

/** «ГГГГ-ММ-ДД…» or «ДД.ММ.ГГГГ» as ГГГГ-ММ-ДД; null when it is no real date. */
export function normaliseDate(value: string): string | null {
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  const ru = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(value);
  const [y, m, d] = iso ? [iso[1], iso[2], iso[3]] : ru ? [ru[3], ru[2], ru[1]] : [];
  if (!y) {
    return null;
  }
  const date = new Date(`${y}-${m}-${d}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== `${y}-${m}-${d}`
    ? null
    : `${y}-${m}-${d}`;
}

const TRUE_VALUES = new Set(['true', '1', 'да', 'yes']);

/** Validates one row (column name → text) against the layout; row numbers count the header as 1. */
export function parseDatasetRow(
  type: SourceType,
  row: Record<string, string>,
  rowNumber: number,
  /** Columns whose cell was longer than the reader's cap (and cut there). */
  longColumns?: ReadonlySet<string>,
): { record: DatasetRecord } | { error: RowError } {
  const layout = DATASET_LAYOUTS[type];
  const fail = (message: string) => ({ error: { row: rowNumber, message } });
  const value = (column: string) => (row[column] ?? '').trim();

  let identifier: string;
  let documentType = '';
  if (layout.identifier === 'vin') {
    const vin = validateVin(value('vin'));
    if (!vin.ok) {
      return fail(vin.error);
    }
    identifier = vin.value;
  } else {
    const rawType = value('document_type') || layout.defaultDocumentType || '';
    if (!isDocumentType(rawType) || (layout.documentTypes && !layout.documentTypes.includes(rawType))) {
      return fail(
        `document_type: допустимые значения — ${(layout.documentTypes ?? []).join(', ')}${rawType ? ` (указано «${rawType}»)` : ''}`,
      );
    }
    const document = validateDocument(rawType, value('document_number'));
    if (!document.ok) {
      return fail(document.error);
    }
    identifier = document.value;
    documentType = rawType;
  }

  const tooLong = (column: string) => `${column}: не длиннее ${MAX_CELL_CHARS} символов`;
  const key = value(layout.key) || (layout.keyOptional ? identifier : '');
  if (!key) {
    return fail(`${layout.key}: обязательное поле`);
  }
  if (longColumns?.has(layout.key)) {
    return fail(tooLong(layout.key));
  }
  const payload: Record<string, unknown> = { [layout.key]: key };
  for (const column of layout.required) {
    if (!value(column)) {
      return fail(`${column}: обязательное поле`);
    }
  }
  for (const column of [...layout.required, ...layout.optional]) {
    const text = value(column);
    if (!text) {
      continue;
    }
    if (text.length > MAX_CELL_CHARS || longColumns?.has(column)) {
      return fail(tooLong(column));
    }
    if (layout.dates?.includes(column)) {
      const date = normaliseDate(text);
      if (!date) {
        return fail(`${column}: дата в формате ГГГГ-ММ-ДД или ДД.ММ.ГГГГ (указано «${text}»)`);
      }
      payload[column] = date;
    } else if (layout.numbers?.includes(column)) {
      const number = Number(text.replace(/\s/g, '').replace(',', '.'));
      if (!Number.isFinite(number)) {
        return fail(`${column}: число (указано «${text}»)`);
      }
      payload[column] = number;
    } else if (layout.enums?.[column]) {
      if (!layout.enums[column].includes(text)) {
        return fail(
          `${column}: допустимые значения — ${layout.enums[column].join(', ')} (указано «${text}»)`,
        );
      }
      payload[column] = text;
    } else {
      payload[column] = text;
    }
  }
  if (TRUE_VALUES.has(value('demo').toLowerCase())) {
    payload.demo = true;
  }
  return { record: { documentType, identifier, key, payload } };
}

/** One data row of a dataset file: column name → text, and the columns whose cell was cut at the cap. */
export interface DatasetRow {
  /** 1-based, the header being row 1. */
  rowNumber: number;
  values: Record<string, string>;
  longColumns?: ReadonlySet<string>;
}

/**
 * A CSV dataset through the shared reader (lib/tabular): encoding (UTF-8 with or without BOM, or
 * Windows-1251) and delimiter (`;`, `,` or tab) from the head, streamed, cells capped. Blank rows are
 * skipped but counted, so row numbers are the file's.
 */
export async function* readDatasetCsv(source: AsyncIterable<Uint8Array>): AsyncGenerator<DatasetRow> {
  const { head, chunks } = await readHead(source);
  let columns: string[] | null = null;
  let rowNumber = 0;
  for await (const record of readCsvRecords(chunks, detectCsvFormat(head))) {
    rowNumber++;
    if (!columns) {
      columns = record.values.map((name) => name.trim().toLowerCase());
      continue;
    }
    if (!record.values.some((cell) => cell.trim() !== '')) {
      continue;
    }
    const cells = record.values;
    const longColumns = record.longCells
      ? new Set([...record.longCells.keys()].map((index) => columns![index] ?? ''))
      : undefined;
    yield {
      rowNumber,
      values: Object.fromEntries(columns.map((column, index) => [column, cells[index] ?? ''])),
      longColumns,
    };
  }
}

/** A JSON file: an array of objects, or `{ "records": [...] }`, with the CSV's column names. */
export function parseJsonRows(text: string): Record<string, string>[] | null {
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return null;
  }
  const list = Array.isArray(data) ? data : (data as { records?: unknown })?.records;
  if (!Array.isArray(list)) {
    return null;
  }
  return list.map((entry) =>
    Object.fromEntries(
      Object.entries(typeof entry === 'object' && entry ? entry : {}).map(([key, value]) => [
        key.toLowerCase(),
        value === null || value === undefined ? '' : String(value),
      ]),
    ),
  );
}
