import { findingFieldLabel, formatFindingValue } from '@pledgewatch/contract';
import { texts } from '@/features/events/texts';

type Record_ = Record<string, unknown> | null;

const t = texts.events.change;

/** Fields that say most about a record, for a one-line description of it. */
const HEADLINE_FIELDS = [
  'status',
  'kind',
  'operation',
  'pledgee',
  'reason',
  'subject',
  'date',
  'registered_at',
  'since',
  'imposed_at',
  'opened_at',
  'closed_at',
  'amount',
];
const HIDDEN = new Set(['demo']);
const MAX_LINES = 3;

function headline(record: Record<string, unknown>): string {
  const parts = HEADLINE_FIELDS.filter(
    (field) => record[field] !== undefined && record[field] !== null && record[field] !== '',
  )
    .slice(0, 2)
    .map((field) => `${findingFieldLabel(field)}: ${formatFindingValue(field, record[field])}`);
  return parts.join(', ') || t.record;
}

/**
 * Before → after in a few short lines: a new record, a vanished one, or the fields that changed.
 */
export function changeSummary(before: Record_, after: Record_): string[] {
  if (!before && after) {
    return [`${t.none} → ${headline(after)}`];
  }
  if (before && !after) {
    return [`${headline(before)} → ${t.none}`];
  }
  if (!before || !after) {
    return [];
  }
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (field) => !HIDDEN.has(field) && JSON.stringify(before[field]) !== JSON.stringify(after[field]),
  );
  const lines = fields
    .slice(0, MAX_LINES)
    .map(
      (field) =>
        `${findingFieldLabel(field)}: ${formatFindingValue(field, before[field])} → ${formatFindingValue(field, after[field])}`,
    );
  if (fields.length > MAX_LINES) {
    lines.push(t.more(fields.length - MAX_LINES));
  }
  return lines.length > 0 ? lines : [t.unchanged];
}
