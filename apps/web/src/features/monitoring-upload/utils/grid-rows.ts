import {
  DOCUMENT_TYPE_CODES,
  DOCUMENT_TYPES,
  type DocumentType,
  detectDocumentType,
  type ExtractedKind,
  extractIdentifiers,
  formatDocument,
  isDocumentType,
  validateDocument,
  validateVin,
} from '@pledgewatch/identifiers';

export type GridRowType = 'vin' | DocumentType;

export type GridRow = {
  key: string;
  type: GridRowType;
  identifier: string;
  label: string;
  contractNumber: string;
  pledgorName: string;
  /** The server's reason for refusing this row, until the user edits the field it names. */
  serverError: ServerRowError | null;
};

export type GridTextField = 'label' | 'contractNumber' | 'pledgorName';

/** Where a server refusal is shown: under a text cell, or under the identifier for anything else. */
export type ServerRowError = { field: GridTextField | 'identifier'; message: string };

export function toServerRowError(field: string | null, message: string): ServerRowError {
  return field === 'label' || field === 'contractNumber' || field === 'pledgorName'
    ? { field, message }
    : { field: 'identifier', message };
}

export type RowCheck =
  | { state: 'empty' }
  | { state: 'error'; message: string }
  | { state: 'ok'; value: string; display: string; warning: string | null };

let nextKey = 0;
export const newRowKey = (): string => `row-${++nextKey}`;

export const emptyRow = (type: GridRowType = 'vin'): GridRow => ({
  key: newRowKey(),
  type,
  identifier: '',
  label: '',
  contractNumber: '',
  pledgorName: '',
  serverError: null,
});

/** A VIN as typed, shown and kept in capitals (as the pledge form and the server have it). */
export const typedVin = (text: string): string => text.toUpperCase();

/**
 * A row after an edit: a VIN row keeps its identifier in capitals, and the server's refusal goes once
 * the field it names (or the row's type, for the identifier) is edited.
 */
export function applyRowChange(row: GridRow, changes: Partial<GridRow>): GridRow {
  const next = { ...row, ...changes };
  if (next.type === 'vin') {
    next.identifier = typedVin(next.identifier);
  }
  const blamed = row.serverError?.field;
  const fixed = blamed !== undefined && (blamed in changes || (blamed === 'identifier' && 'type' in changes));
  return { ...next, serverError: fixed ? null : row.serverError };
}

/** The same rules the server applies, so a row is marked while it is typed. */
export function checkRow(row: Pick<GridRow, 'type' | 'identifier'>): RowCheck {
  if (row.identifier.trim() === '') {
    return { state: 'empty' };
  }
  if (row.type === 'vin') {
    const result = validateVin(row.identifier);
    return result.ok
      ? { state: 'ok', value: result.value, display: result.value, warning: result.warnings[0] ?? null }
      : { state: 'error', message: result.error };
  }
  const result = validateDocument(row.type, row.identifier);
  return result.ok
    ? { state: 'ok', value: result.value, display: formatDocument(row.type, result.value), warning: null }
    : { state: 'error', message: result.error };
}

const EXTRACTED_TYPES: Record<ExtractedKind, GridRowType> = {
  vin: 'vin',
  inn: 'inn',
  ogrn: 'ogrn',
  ogrnip: 'ogrnip',
};

/** A document type written in a cell: the code (passport_rf) or its Russian name (Паспорт РФ). */
function documentTypeOf(cell: string): DocumentType | null {
  const value = cell.trim().toLowerCase();
  if (value === '') {
    return null;
  }
  if (isDocumentType(value)) {
    return value;
  }
  for (const code of DOCUMENT_TYPE_CODES) {
    if (DOCUMENT_TYPES[code].toLowerCase() === value) {
      return code;
    }
  }
  if (value.startsWith('паспорт')) {
    return 'passport_rf';
  }
  if (value.startsWith('водит') || value === 'ву') {
    return 'driving_licence';
  }
  return null;
}

/** VIN when it is one (or looks like one with a typo); otherwise the document type the shape tells. */
function guessType(identifier: string): GridRowType {
  if (validateVin(identifier).ok) {
    return 'vin';
  }
  const detected = detectDocumentType(identifier);
  if (detected) {
    return detected;
  }
  return 'vin';
}

const HEADER_WORDS = /^(vin|вин|номер|документ|тип|идентификатор|серия)/i;

function fromCells(cells: string[]): Omit<GridRow, 'key' | 'serverError'> | null {
  const [first = '', ...rest] = cells.map((cell) => cell.trim());
  const documentType = documentTypeOf(first);
  const [identifier = '', label = '', contractNumber = '', pledgorName = ''] = documentType
    ? rest
    : [first, ...rest];
  if (identifier === '') {
    return null;
  }
  return { type: documentType ?? guessType(identifier), identifier, label, contractNumber, pledgorName };
}

/**
 * Rows from pasted text. Cells copied from Excel (tab-separated, or `;`) map to
 * [type,] identifier, label, contract, pledgor; a header row is skipped. Any other text — a letter,
 * a list — is searched for VINs, INNs and OGRNs; when none is found, each line becomes a row.
 */
export function parsePastedRows(text: string): GridRow[] {
  const lines = text.split(/\r\n|\r|\n/).filter((line) => line.trim() !== '');
  if (lines.length === 0) {
    return [];
  }
  const delimiter = lines.some((line) => line.includes('\t'))
    ? '\t'
    : lines.every((line) => line.includes(';'))
      ? ';'
      : null;

  if (delimiter) {
    const rows: GridRow[] = [];
    for (const [index, line] of lines.entries()) {
      const parsed = fromCells(line.split(delimiter));
      if (!parsed) {
        continue;
      }
      const isHeader =
        index === 0 && checkRow(parsed).state === 'error' && HEADER_WORDS.test(parsed.identifier);
      if (!isHeader) {
        rows.push({ ...parsed, key: newRowKey(), serverError: null });
      }
    }
    return rows;
  }

  const found = extractIdentifiers(text);
  if (found.length > 0) {
    return found.map((item) => ({
      ...emptyRow(EXTRACTED_TYPES[item.kind]),
      identifier: item.status === 'accepted' ? item.value : item.raw,
    }));
  }
  return lines.map((line) => ({ ...emptyRow(guessType(line.trim())), identifier: line.trim() }));
}

/** Looks like more than one cell: the paste should become rows rather than go into one input. */
export const isMultiCellPaste = (text: string): boolean => /[\t\n\r]/.test(text.trim());
