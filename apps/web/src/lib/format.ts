import { texts } from '@/config/texts';

const dateTime = new Intl.DateTimeFormat('ru-RU', { dateStyle: 'short', timeStyle: 'short' });

export function formatDateTime(value: string | null | undefined): string {
  if (!value) {
    return texts.common.dash;
  }
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : dateTime.format(date);
}
