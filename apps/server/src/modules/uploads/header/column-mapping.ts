import { type FileColumn, type HeaderKind, keyFieldTitles } from './find-header.ts';

/** Which file column each field is read from, as the validation reads rows. */
export interface HeaderMap {
  /** field → 0-based file column */
  indexOf: Map<string, number>;
  /** The kind's fields with the file header each is read from (null — not in the file). */
  columns: { field: string; title: string; header: string | null }[];
  /** Headers of the file's columns that are not loaded. */
  ignored: string[];
}

export function headerMapOf(kind: HeaderKind, columns: readonly FileColumn[]): HeaderMap {
  const indexOf = new Map<string, number>();
  const headers = new Map<string, string>();
  const ignored: string[] = [];
  for (const column of columns) {
    if (column.field && !indexOf.has(column.field)) {
      indexOf.set(column.field, column.index);
      headers.set(column.field, column.header || `Столбец ${column.index + 1}`);
    } else if (column.header !== '') {
      ignored.push(column.header);
    }
  }
  return {
    indexOf,
    columns: kind.columns.map((c) => ({
      field: c.field,
      title: c.title,
      header: headers.get(c.field) ?? null,
    })),
    ignored,
  };
}

/** One choice of the mapping step: a file column and the field it is loaded into (null — not loaded). */
export interface MappingChoice {
  column: number;
  field: string | null;
}

const columnName = (column: FileColumn | undefined, index: number) =>
  column?.header ? `«${column.header}»` : `№ ${index + 1}`;

/**
 * Checks the user's mapping against the file's columns and the kind's fields; columns it does not
 * name are not loaded. Answers the field of every file column, or the reason in Russian.
 */
export function checkMapping(
  kind: HeaderKind,
  columns: readonly FileColumn[],
  choices: readonly MappingChoice[],
): { ok: true; fields: (string | null)[] } | { ok: false; message: string } {
  const fields: (string | null)[] = columns.map(() => null);
  const seen = new Set<number>();
  const fieldColumn = new Map<string, number>();
  const known = new Map(kind.columns.map((column) => [column.field, column.title]));
  for (const { column, field } of choices) {
    if (column < 0 || column >= columns.length) {
      return { ok: false, message: `Столбца № ${column + 1} в файле нет: в нём ${columns.length} столбцов` };
    }
    if (seen.has(column)) {
      return {
        ok: false,
        message: `Столбец ${columnName(columns[column], column)} указан в сопоставлении дважды: выберите для него одно поле`,
      };
    }
    seen.add(column);
    if (field === null) {
      continue;
    }
    const title = known.get(field);
    if (title === undefined) {
      return { ok: false, message: `Поля «${field}» в этой загрузке нет: выберите поле из списка` };
    }
    const other = fieldColumn.get(field);
    if (other !== undefined) {
      return {
        ok: false,
        message: `Поле «${title}» выбрано для двух столбцов: ${columnName(columns[other], other)} и ${columnName(columns[column], column)} — оставьте один`,
      };
    }
    fieldColumn.set(field, column);
    fields[column] = field;
  }
  if (!kind.keyFields.some((field) => fieldColumn.has(field))) {
    return {
      ok: false,
      message: `Не выбран столбец ${keyFieldTitles(kind)}: без него строки загрузить нельзя. Ничего не загружено`,
    };
  }
  return { ok: true, fields };
}

/** The columns with the given fields (one per column), marked with how they were decided. */
export function withFields(
  columns: readonly FileColumn[],
  fields: readonly (string | null)[],
  match: 'remembered' | 'chosen',
): FileColumn[] {
  return columns.map((column, index) => {
    const field = fields[index] ?? null;
    return {
      ...column,
      field,
      match: field === null ? null : match,
      ambiguous: false,
    };
  });
}
