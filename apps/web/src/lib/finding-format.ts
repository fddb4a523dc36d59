import { FINDING_FIELD_LABELS, findingFlagText } from '@pledgewatch/contract';
import { texts } from '@/config/texts';
import { formatNumber } from './format';

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const STATUS_LABELS: Readonly<Record<string, string>> = texts.findings.statuses;

export const findingFieldLabel = (field: string): string => FINDING_FIELD_LABELS[field] ?? field;

/**
 * One field of a source record in Russian: dates as ДД.ММ.ГГГГ, numbers with spaces, known status
 * codes as words. Shared by the check results and the events' before → after summaries.
 */
export function formatFindingValue(field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') {
    return texts.common.dash;
  }
  const flag = findingFlagText(field, value);
  if (flag !== null) {
    return flag;
  }
  if (typeof value === 'boolean') {
    return value ? texts.common.yes : texts.common.no;
  }
  if (typeof value === 'number') {
    return formatNumber(value);
  }
  if (typeof value === 'string') {
    const date = ISO_DATE.exec(value);
    if (date) {
      return `${date[3]}.${date[2]}.${date[1]}`;
    }
    return field === 'status' ? (STATUS_LABELS[value] ?? value) : value;
  }
  return JSON.stringify(value);
}

/** The fields worth showing, labelled (the `demo` flag is shown as a chip, not as a line). */
export function findingLines(
  payload: Record<string, unknown>,
): { field: string; label: string; value: string }[] {
  return Object.entries(payload)
    .filter(([field]) => field !== 'demo')
    .map(([field, value]) => ({
      field,
      label: findingFieldLabel(field),
      value: formatFindingValue(field, value),
    }));
}
