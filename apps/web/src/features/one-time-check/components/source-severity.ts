import { EVENT_TYPES, SEVERITIES, type Severity, type SourceType } from '@pledgewatch/contract';

const CLOSED_STATUSES = new Set(['excluded', 'closed']);

const rank = (severity: Severity) => SEVERITIES[severity].rank;

/**
 * How serious a record of this source is: the severity of the event a first check would raise
 * (a pledge to another creditor is critical, an accident high), or the source's highest one.
 */
export function sourceSeverity(type: SourceType): Severity {
  const infos = Object.values(EVENT_TYPES).filter((info) => info.source === type);
  const pool = infos.some((info) => info.onFirstCheck) ? infos.filter((info) => info.onFirstCheck) : infos;
  return pool.reduce<Severity>(
    (best, info) => (rank(info.severity) > rank(best) ? info.severity : best),
    'low',
  );
}

/** A record that is already over (an excluded pledge, a closed case) only matters as history. */
export function findingSeverity(type: SourceType, payload: Record<string, unknown>): Severity {
  return typeof payload.status === 'string' && CLOSED_STATUSES.has(payload.status)
    ? 'low'
    : sourceSeverity(type);
}

export function maxSeverity(severities: Severity[]): Severity | null {
  return severities.reduce<Severity | null>(
    (best, severity) => (best === null || rank(severity) > rank(best) ? severity : best),
    null,
  );
}
