import { FINDING_FIELD_LABELS, findingFlagText } from './checks.ts';

/**
 * How people read a source record, everywhere: the screens, the check document and its PDF, e-mails,
 * Telegram and the text of webhooks, reports. Dates as ДД.ММ.ГГГГ (instants in Moscow time), numbers
 * with Russian grouping, known status codes as words.
 */
export const FINDING_STATUS_LABELS: Readonly<Record<string, string>> = {
  active: 'Действует',
  changed: 'Изменён',
  excluded: 'Прекращён',
  open: 'Открыто',
  closed: 'Завершено',
};

const EMPTY = '—';
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const number = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 2 });
const moscowInstant = new Intl.DateTimeFormat('ru-RU', {
  timeZone: 'Europe/Moscow',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

export const findingFieldLabel = (field: string): string => FINDING_FIELD_LABELS[field] ?? field;

/** «2026-11-20» → «20.11.2026»; an ISO instant → «20.11.2026 13:05» in Moscow time; else as is. */
export function formatPeopleDate(value: string): string {
  const date = ISO_DATE.exec(value);
  if (date) {
    return `${date[3]}.${date[2]}.${date[1]}`;
  }
  if (ISO_INSTANT.test(value)) {
    const instant = new Date(value);
    if (!Number.isNaN(instant.getTime())) {
      return moscowInstant.format(instant).replace(',', '');
    }
  }
  return value;
}

/** One field of a source record in Russian. */
export function formatFindingValue(field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') {
    return EMPTY;
  }
  const flag = findingFlagText(field, value);
  if (flag !== null) {
    return flag;
  }
  if (typeof value === 'boolean') {
    return value ? 'да' : 'нет';
  }
  if (typeof value === 'number') {
    return number.format(value).replace(/\u00a0/g, ' ');
  }
  if (typeof value === 'string') {
    const text = formatPeopleDate(value);
    return field === 'status' ? (FINDING_STATUS_LABELS[text] ?? text) : text;
  }
  return JSON.stringify(value);
}

/** Fields that are ours, not the record's: the demo flag and ids of organisations. */
const isInternalField = (field: string) => field === 'demo' || field.endsWith('OrganisationId');

/** A record's fields worth showing, labelled, in the order given. */
export function findingLines(
  payload: Record<string, unknown>,
): { field: string; label: string; value: string }[] {
  return Object.entries(payload)
    .filter(
      ([field, value]) => !isInternalField(field) && value !== null && value !== undefined && value !== '',
    )
    .map(([field, value]) => ({
      field,
      label: findingFieldLabel(field),
      value: formatFindingValue(field, value),
    }));
}
