import { plural } from '@pledgewatch/identifiers';

export { plural };

const integer = new Intl.NumberFormat('ru-RU');

/** «1 250 000» with the Russian group separator. */
export const formatInteger = (value: number): string => integer.format(value);

/** «3 строки», «1 250 объектов». */
export const countOf = (count: number, one: string, few: string, many: string): string =>
  `${integer.format(count)} ${plural(count, one, few, many)}`;
