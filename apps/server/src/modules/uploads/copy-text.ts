// COPY text format, built wherever rows are checked (the reader thread builds whole batches of lines).

const SPECIAL = /[\\\t\n\r]/;

/** A field in COPY text format: NULL as \N, backslash, tab and line breaks escaped. */
export function copyField(value: string | null): string {
  if (value === null) {
    return '\\N';
  }
  if (!SPECIAL.test(value)) {
    return value;
  }
  return value.replace(/[\\\t\n\r]/g, (char) =>
    char === '\\' ? '\\\\' : char === '\t' ? '\\t' : char === '\n' ? '\\n' : '\\r',
  );
}

/** One COPY line, its newline included. */
export function copyLine(fields: readonly (string | null)[]): string {
  let line = '';
  for (let i = 0; i < fields.length; i++) {
    line += (i === 0 ? '' : '\t') + copyField(fields[i] ?? null);
  }
  return `${line}\n`;
}

/** A PostgreSQL text[] literal. */
export function arrayLiteral(values: readonly string[]): string {
  return `{${values.map((value) => `"${value.replace(/[\\"]/g, (char) => `\\${char}`)}"`).join(',')}}`;
}
