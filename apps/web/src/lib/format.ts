import { texts } from '@/config/texts';
import { moscowDateTimeFormat } from './moscow-time';

/**
 * «21.11.2026, 14:05» in Moscow time whatever the browser's zone: every instant the app shows is
 * Moscow time (lib/moscow-time.ts), so a list and the home page never disagree about one moment.
 */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) {
    return texts.common.dash;
  }
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : moscowDateTimeFormat.format(date);
}

const integer = new Intl.NumberFormat('ru-RU');

export const formatNumber = (value: number): string => integer.format(value);

/** File sizes in Russian units. */
export function formatBytes(bytes: number): string {
  const units = ['Б', 'КБ', 'МБ', 'ГБ'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 10 ? 0 : 1;
  return `${value.toFixed(digits).replace('.', ',')} ${units[unit]}`;
}
