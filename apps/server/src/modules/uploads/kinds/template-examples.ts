import { parseRuDate } from '@pledgewatch/contract/pledges';
import type { UploadColumn, UploadKindHandler } from './upload-kind.ts';

export const TEMPLATE_EXAMPLE_MESSAGE = 'Строка из примера шаблона — удалите её';

const text = (value: string) => value.trim().toLowerCase().replace(/\s+/g, ' ');
/** A date column's cell by its day: the template's date cells read back as Excel serial days. */
const cell = (column: UploadColumn, value: string) =>
  column.date ? (parseRuDate(value) ?? text(value)) : text(value);

/**
 * Recognises the template's example rows left in a file, so they are refused with a clear reason
 * instead of being imported as someone's data. A row is an example when every column the file has
 * holds the example's value (case and spacing aside) and at least two of them are filled: a file of
 * one column holding a VIN that happens to be the example's is data. `indexes` is the file column of
 * each of the kind's columns, -1 when the file lacks it.
 */
export function templateExampleMatcher(
  handler: Pick<UploadKindHandler, 'columns' | 'templateRows'>,
  indexes: readonly number[],
): (values: Readonly<Record<string, string>>) => boolean {
  const present = handler.columns
    .map((column, i) => ({ column, field: column.field, i }))
    .filter(({ i }) => indexes[i]! >= 0);
  const signature = (cellOf: (field: string, i: number) => string) =>
    present.map(({ column, field, i }) => cell(column, cellOf(field, i))).join('\u0001');
  const examples = new Set(
    handler.templateRows
      .map((row) => signature((_field, i) => row[i] ?? ''))
      .filter((sig) => sig.split('\u0001').filter(Boolean).length >= 2),
  );
  // A row's signature is built only when its first present cell is some example's: per-row string
  // work a million times over otherwise.
  const first = present[0];
  const firstCells = new Set([...examples].map((sig) => sig.split('\u0001')[0]));
  return (values) =>
    examples.size > 0 &&
    first !== undefined &&
    firstCells.has(cell(first.column, values[first.field] ?? '')) &&
    examples.has(signature((field) => values[field] ?? ''));
}
