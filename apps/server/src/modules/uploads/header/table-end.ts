import { normaliseHeader } from './header-names.ts';

const TOTAL_WORDS = ['итого', 'итог', 'всего', 'в том числе', 'total', 'subtotal', 'grand total'];

const isTotalsText = (value: string) => {
  const text = normaliseHeader(value);
  return TOTAL_WORDS.some((word) => text === word || text.startsWith(`${word} `));
};

const isCount = (value: string) => /^\s*\d[\d\s]*\s*$/.test(value);

/**
 * Whether a row without an identifier is a totals line or a note rather than a row of data: it says
 * «Итого»/«Всего», holds a lone count, or fills only columns that are not loaded (a branch line or a
 * signature under the table, usually in the «№ п/п» column or merged across). Such rows are skipped
 * and counted, not refused. `loaded` holds the file columns mapped to a field, `identifiers` those of
 * the row's identifier (VIN, document number…); a row with an identifier (other than «Итого») is
 * always data.
 */
export function isTotalsOrNote(
  values: readonly string[],
  loaded: ReadonlySet<number>,
  identifiers: readonly number[],
): boolean {
  // «Итого» often stands in the first column, whichever field that is.
  if (identifiers.some((index) => (values[index] ?? '').trim() !== '' && !isTotalsText(values[index]!))) {
    return false;
  }
  const filled = values.flatMap((value, index) => (value.trim() === '' ? [] : [index]));
  if (filled.length === 0) {
    return false;
  }
  if (filled.some((index) => isTotalsText(values[index]!))) {
    return true;
  }
  if (filled.length === 1 && isCount(values[filled[0]!]!)) {
    return true;
  }
  return filled.every((index) => !loaded.has(index));
}
