import { createHash } from 'node:crypto';
import type { FileRow } from '../reader/row-source.ts';
import { type FieldNames, headerLookup, normaliseHeader } from './header-names.ts';

/** The header is looked for in this many first rows of the sheet. */
export const HEADER_SEARCH_ROWS = 30;
/** Rows read past the search to tell «the header is further down» from «there is none». */
export const HEADER_LOOKAHEAD_ROWS = 60;
/** Sample values shown per column at the mapping step. */
export const SAMPLES_PER_COLUMN = 3;
/** What a header or a sample keeps for the screen (the upload's details hold them). */
const SHOWN_CHARS = 100;

/** What header detection needs of an upload kind. */
export interface HeaderKind {
  columns: readonly FieldNames[];
  /** A file must give one of these fields (the row's identifier). */
  keyFields: readonly string[];
  missingHeaderMessage: string;
  looksLikeData(values: readonly string[]): boolean;
}

export const isBlank = (values: readonly string[]) => values.every((value) => value.trim() === '');

const shown = (value: string) => {
  const clean = value.replaceAll('\0', '').replace(/\s+/g, ' ').trim();
  return clean.length > SHOWN_CHARS ? `${clean.slice(0, SHOWN_CHARS)}…` : clean;
};

export type HeaderSearch = { ok: true; index: number; recognised: boolean } | { ok: false; message: string };

const rowRange = (from: number, to: number) => (from === to ? `Строка ${from}` : `Строки ${from}–${to}`);

/** «Строки 1–3 пропущены: заголовок найден в строке 4», or null when the header is the first row. */
export function skippedAboveMessage(headerRow: number): string | null {
  if (headerRow <= 1) {
    return null;
  }
  return `${rowRange(1, headerRow - 1)} ${headerRow === 2 ? 'пропущена' : 'пропущены'}: заголовок найден в строке ${headerRow}`;
}

/**
 * Finds the header among the first HEADER_SEARCH_ROWS rows: the row naming the most known fields
 * (one naming an identifier first; the earliest on a tie). When no row names any, the header is
 * taken to be the last non-blank row above the first row of data, and the user maps its columns.
 * `rows` are the file's first rows as read (up to HEADER_LOOKAHEAD_ROWS).
 */
export function findHeaderRow(kind: HeaderKind, rows: readonly FileRow[]): HeaderSearch {
  const lookup = headerLookup(kind.columns);
  const scoreOf = (row: FileRow) => {
    const fields = new Set<string>();
    for (const cell of row.values) {
      const match = cell.trim() === '' ? null : lookup(cell);
      if (match) {
        fields.add(match.field);
      }
    }
    const hasKey = kind.keyFields.some((field) => fields.has(field));
    return fields.size * 2 + (hasKey ? 1 : 0);
  };
  let best = -1;
  let bestScore = 0;
  rows.forEach((row, index) => {
    if (row.rowNumber > HEADER_SEARCH_ROWS) {
      return;
    }
    const score = scoreOf(row);
    if (score > bestScore) {
      best = index;
      bestScore = score;
    }
  });
  if (best >= 0) {
    return { ok: true, index: best, recognised: true };
  }
  const searched = rows.filter((row) => row.rowNumber <= HEADER_SEARCH_ROWS);
  const firstFilled = searched.findIndex((row) => !isBlank(row.values));
  if (firstFilled < 0) {
    const later = rows.find((row) => row.rowNumber > HEADER_SEARCH_ROWS && !isBlank(row.values));
    return {
      ok: false,
      message: later
        ? `В первых ${HEADER_SEARCH_ROWS} строках файла нет ничего: таблица начинается только в строке ${later.rowNumber}. Удалите пустые строки над таблицей`
        : 'Файл пустой: в нём нет ни одной строки',
    };
  }
  const firstData = searched.findIndex((row) => !isBlank(row.values) && kind.looksLikeData(row.values));
  if (firstData === firstFilled) {
    return {
      ok: false,
      message: `Первая строка файла — данные, а не заголовки. ${kind.missingHeaderMessage.replace(/^Не найдена строка заголовков: /, 'Добавьте строку заголовков: ')}`,
    };
  }
  if (firstData > 0) {
    for (let index = firstData - 1; index >= 0; index--) {
      if (!isBlank(searched[index]!.values)) {
        return { ok: true, index, recognised: false };
      }
    }
  }
  const further = rows.find((row) => row.rowNumber > HEADER_SEARCH_ROWS && scoreOf(row) > 0);
  if (further) {
    return {
      ok: false,
      message: `Заголовок таблицы найден только в строке ${further.rowNumber}, а его ищут в первых ${HEADER_SEARCH_ROWS} строках: удалите лишние строки над таблицей и загрузите файл ещё раз`,
    };
  }
  return { ok: false, message: kind.missingHeaderMessage };
}

/** One column of the file as the mapping step shows it. */
export interface FileColumn {
  /** 0-based column of the file. */
  index: number;
  header: string;
  samples: string[];
  /** The field the column is loaded into; null — not loaded. */
  field: string | null;
  /** How the field was found: the template's title, a synonym, remembered, chosen by the user. */
  match: 'title' | 'synonym' | 'remembered' | 'chosen' | null;
  /** Another column could be the same field. */
  ambiguous: boolean;
}

export interface MappingProposal {
  columns: FileColumn[];
  /** Why the user must choose (no identifier, two columns for one field), or null when sure. */
  question: string | null;
}

const titleOf = (kind: HeaderKind, field: string) =>
  kind.columns.find((column) => column.field === field)?.title ?? field;

/** «VIN» или «Номер документа» */
export const keyFieldTitles = (kind: HeaderKind) =>
  kind.keyFields.map((field) => `«${titleOf(kind, field)}»`).join(' или ');

/**
 * The columns of the header row with their first sample values and the field each is taken for.
 * Two columns naming one field both stay unsure: the first is proposed, the user decides.
 */
export function proposeMapping(
  kind: HeaderKind,
  header: readonly string[],
  dataRows: readonly (readonly string[])[],
): MappingProposal {
  const lookup = headerLookup(kind.columns);
  let width = 0;
  header.forEach((cell, index) => {
    if (cell.trim() !== '') {
      width = index + 1;
    }
  });
  for (const values of dataRows) {
    values.forEach((cell, index) => {
      if (cell.trim() !== '') {
        width = Math.max(width, index + 1);
      }
    });
  }
  const columns: FileColumn[] = [];
  const byField = new Map<string, FileColumn[]>();
  for (let index = 0; index < width; index++) {
    const text = header[index] ?? '';
    const samples: string[] = [];
    for (const values of dataRows) {
      const value = values[index]?.trim() ?? '';
      if (value !== '' && samples.length < SAMPLES_PER_COLUMN) {
        samples.push(shown(value));
      }
    }
    const match = text.trim() === '' ? null : lookup(text);
    const column: FileColumn = {
      index,
      header: shown(text),
      samples,
      field: match?.field ?? null,
      match: match?.how ?? null,
      ambiguous: false,
    };
    columns.push(column);
    if (match) {
      byField.set(match.field, [...(byField.get(match.field) ?? []), column]);
    }
  }
  const questions: string[] = [];
  for (const [field, same] of byField) {
    if (same.length > 1) {
      for (const [i, column] of same.entries()) {
        column.ambiguous = true;
        if (i > 0) {
          column.field = null;
          column.match = null;
        }
      }
      questions.push(
        `Столбцы ${same.map((column) => `«${column.header}»`).join(', ')} похожи на одно поле «${titleOf(kind, field)}»: выберите, какой загружать`,
      );
    }
  }
  if (!columns.some((column) => column.field && kind.keyFields.includes(column.field))) {
    questions.unshift(`Не найден столбец ${keyFieldTitles(kind)}: укажите, что хранится в каждом столбце`);
  }
  return { columns, question: questions.length > 0 ? questions.join('. ') : null };
}

/**
 * The header's fingerprint a remembered mapping is kept under: the kind and each column's
 * normalised name in order, so a file exported the same way again gets the same answer.
 */
export function headerSignature(kind: string, header: readonly string[], width: number): string {
  const names = Array.from({ length: width }, (_, index) => normaliseHeader(header[index] ?? ''));
  return createHash('sha256')
    .update([kind, ...names].join('\u0001'))
    .digest('hex');
}
