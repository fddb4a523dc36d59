import type { Finding } from '@pledgewatch/contract';
import { normaliseDate } from '../dataset-layouts.ts';
import { ProviderFailure } from './provider-failure.ts';

/**
 * Building findings from providers' answers in the shapes the dataset layouts give them
 * (dataset-layouts.ts): the same key field and payload fields per source type, dates as ГГГГ-ММ-ДД,
 * so an event from a provider reads like one from a dataset and the diff compares like with like.
 */

/** A provider's date or date-time (ISO, «ГГГГ-ММ-ДД ЧЧ:ММ:СС», «ДД.ММ.ГГГГ[ ЧЧ:ММ]») as ГГГГ-ММ-ДД. */
export function toIsoDate(value: unknown): string | null {
  if (typeof value !== 'string') {
    return null;
  }
  // The dataset files' rule, after the time of day a provider may add to a Russian date.
  return normaliseDate(value.trim().replace(/^(\d{2}\.\d{2}\.\d{4}) \d{2}:\d{2}(:\d{2})?$/, '$1'));
}

/** A date the finding cannot do without: unreadable when absent or malformed. */
export function requireDate(value: unknown, field: string): string {
  const date = toIsoDate(value);
  if (!date) {
    throw new ProviderFailure('unreadable', `поле ${field}: нет даты`);
  }
  return date;
}

/** Drops empty fields, so a provider that leaves one out and one that sends it empty read alike. */
export function compactPayload(payload: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(payload).filter(([, value]) => value !== undefined && value !== null && value !== ''),
  );
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** Names of a notice's parties, joined; placeholders for hidden parties dropped. */
export function joinNames(names: unknown[]): string {
  return [...new Set(names.map(text).filter((name) => name !== '' && name !== 'REFUSE'))].join('; ');
}

export const HIDDEN_PARTY = 'сведения не публикуются';

export type PledgeStatus = 'active' | 'changed' | 'excluded';

/**
 * The notice number a pledge is keyed by: the creation notice's number. Later notices (change,
 * exclusion) carry it with a «/N» suffix (Avtocod), so the same pledge has one key whichever
 * provider, and whichever of its notices, reported it.
 */
export function pledgeKey(number: string): string {
  return number.trim().replace(/\/\d+$/, '');
}

/** A pledge in the `pledges` layout: notice_number, status, registered_at, pledgee[, pledgor]. */
export function pledgeFinding(pledge: {
  number: string;
  status: PledgeStatus;
  registeredAt: string;
  pledgees: unknown[];
  pledgors: unknown[];
  pledgeeHidden?: boolean;
  pledgorHidden?: boolean;
}): Finding {
  const key = pledgeKey(pledge.number);
  const pledgee = joinNames(pledge.pledgees) || (pledge.pledgeeHidden ? HIDDEN_PARTY : '');
  return {
    key,
    payload: compactPayload({
      notice_number: key,
      status: pledge.status,
      registered_at: pledge.registeredAt,
      pledgee: pledgee || HIDDEN_PARTY,
      pledgor: joinNames(pledge.pledgors) || (pledge.pledgorHidden ? HIDDEN_PARTY : ''),
    }),
  };
}

/** The status a notice history ends in: CREATION / CHANGE / EXCLUSION or their Russian names. */
export function pledgeStatusOf(types: unknown[]): PledgeStatus {
  const words = types.map((type) => text(type).toLowerCase());
  if (words.some((word) => word === 'exclusion' || word.startsWith('исключ'))) {
    return 'excluded';
  }
  if (words.some((word) => word === 'change' || word.startsWith('измен'))) {
    return 'changed';
  }
  return 'active';
}

/**
 * A key built from the record's content, for providers that give a record no number of its own
 * (restrictions, wanted, registration periods): the date and the kind in lower case, so the same record
 * from two providers gets the same key.
 */
export function contentKey(...parts: string[]): string {
  return parts
    .map((part) => part.trim().toLowerCase().replace(/\s+/g, ' '))
    .filter(Boolean)
    .join(' · ');
}

/**
 * Findings sorted by key, with a repeated key made unique (« #2») so two records of one day and
 * kind stay two findings; the key field in the payload follows.
 */
export function finalizeFindings(findings: Finding[], keyField: string): Finding[] {
  const seen = new Map<string, number>();
  const sorted = findings.toSorted((a, b) =>
    a.key < b.key ? -1 : a.key > b.key ? 1 : JSON.stringify(a.payload) < JSON.stringify(b.payload) ? -1 : 1,
  );
  return sorted.map((finding) => {
    const count = (seen.get(finding.key) ?? 0) + 1;
    seen.set(finding.key, count);
    if (count === 1) {
      return finding;
    }
    const key = `${finding.key} #${count}`;
    return { key, payload: { ...finding.payload, [keyField]: key } };
  });
}

type Text = string | null | undefined;

/** A restriction in the `restrictions` layout, keyed by its date and kind. */
export function restrictionFinding(r: {
  imposedAt: string;
  kind: string;
  imposedBy?: Text;
  basis?: Text;
  region?: Text;
}): Finding {
  const key = contentKey(r.imposedAt, r.kind);
  return {
    key,
    payload: compactPayload({
      record_id: key,
      kind: r.kind,
      imposed_at: r.imposedAt,
      imposed_by: r.imposedBy,
      basis: r.basis,
      region: r.region,
    }),
  };
}

/** A wanted-list entry in the `wanted` layout, keyed by the day the search began. */
export function wantedFinding(w: { since: string; region?: Text; note?: Text }): Finding {
  const key = contentKey('розыск', w.since);
  return { key, payload: compactPayload({ record_id: key, since: w.since, region: w.region, note: w.note }) };
}

/** An accident in the `accidents` layout, keyed by the traffic police's accident number. */
export function accidentFinding(a: {
  number: string;
  date: string;
  region?: Text;
  kind?: Text;
  damage?: Text;
  note?: Text;
}): Finding {
  const key = a.number.trim();
  return {
    key,
    payload: compactPayload({
      record_id: key,
      date: a.date,
      region: a.region,
      kind: a.kind,
      damage: a.damage,
      note: a.note,
    }),
  };
}

export const OWNER_TYPES: Readonly<Record<string, string>> = {
  Natural: 'Физическое лицо',
  Legal: 'Юридическое лицо',
  PERSON: 'Физическое лицо',
  LEGAL: 'Юридическое лицо',
};

/** An ownership period in the `registration` layout, keyed by its start. */
export function ownershipFinding(o: {
  from: string;
  to: string | null;
  operation?: Text;
  ownerType?: Text;
}): Finding {
  const key = contentKey('владение с', o.from);
  return {
    key,
    payload: compactPayload({
      record_id: key,
      operation: o.operation,
      date: o.from,
      owner_type: o.ownerType,
      note: o.to ? `владение по ${o.to.split('-').reverse().join('.')}` : undefined,
    }),
  };
}
