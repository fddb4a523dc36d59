/** Russian plural form for a count: plural(3, 'строка', 'строки', 'строк') → 'строки'. */
export function plural(count: number, one: string, few: string, many: string): string {
  const abs = Math.abs(count) % 100;
  const last = abs % 10;
  if (abs > 10 && abs < 20) {
    return many;
  }
  if (last === 1) {
    return one;
  }
  if (last >= 2 && last <= 4) {
    return few;
  }
  return many;
}

const integer = new Intl.NumberFormat('ru-RU');

/** «1 250 000» with the Russian group separator. */
export const formatInteger = (value: number): string => integer.format(value);

/** «3 строки», «1 250 объектов». */
export const countOf = (count: number, one: string, few: string, many: string): string =>
  `${integer.format(count)} ${plural(count, one, few, many)}`;
