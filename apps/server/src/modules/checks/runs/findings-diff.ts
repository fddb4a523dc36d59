import {
  EVENT_TYPES,
  type EventType,
  type Finding,
  type Severity,
  type SourceType,
} from '@pledgewatch/contract';

type Payload = Record<string, unknown>;

export interface EventDraft {
  type: EventType;
  severity: Severity;
  findingKey: string;
  before: Payload | null;
  after: Payload | null;
  firstCheck: boolean;
  demo: boolean;
}

/** JSON with object keys sorted, so that two equal payloads always compare equal. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) {
    return `[${value.map(stableJson).join(',')}]`;
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Payload)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export const sameFindings = (a: Finding[], b: Finding[]) =>
  a.length === b.length && stableJson(sortFindings(a)) === stableJson(sortFindings(b));

export const sortFindings = (findings: Finding[]) =>
  findings.toSorted((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));

const isClosed = (payload: Payload | null) => payload?.status === 'closed';
const isExcluded = (payload: Payload | null) => payload?.status === 'excluded';
/**
 * A pledge registration only a tenant vouches for (`verified: false`): not confirmed by the registry
 * source, so it raises nothing in other organisations (docs/pledges.md). Records of the registry
 * source itself carry no flag and count as confirmed.
 */
const isUnverified = (payload: Payload | null) => payload?.verified === false;
/**
 * The checking organisation's own pledge: `own` as the source marks it now, or the legacy
 * `pledgeeOrganisationId` of payloads stored before it was scrubbed.
 */
const isOwn = (payload: Payload | null, organisationId: string | undefined) =>
  payload?.own === true || Boolean(organisationId && payload?.pledgeeOrganisationId === organisationId);
/** What a pledge record says to a lender; the flags above are not news by themselves. */
const PLEDGE_FIELDS_IGNORED = new Set(['verified', 'own', 'demo']);
const samePledge = (a: Payload, b: Payload) => {
  const strip = (p: Payload) =>
    Object.fromEntries(Object.entries(p).filter(([k]) => !PLEDGE_FIELDS_IGNORED.has(k)));
  return stableJson(strip(a)) === stableJson(strip(b));
};

function added(source: SourceType, after: Payload, organisationId: string | undefined): EventType | null {
  switch (source) {
    case 'pledges':
      // A pledge already excluded, the organisation's own pledge, or another tenant's registration the
      // registry has not confirmed is nothing to warn about.
      if (isExcluded(after) || isOwn(after, organisationId) || isUnverified(after)) {
        return null;
      }
      return 'pledge_registered_other';
    case 'wanted':
      return 'wanted_added';
    case 'restrictions':
      return 'restriction_added';
    case 'registration':
      return 'ownership_changed';
    case 'accidents':
      return 'accident_recorded';
    case 'bankruptcy':
      return isClosed(after) ? null : 'bankruptcy_opened';
    case 'enforcement':
      return isClosed(after) ? null : 'enforcement_opened';
    case 'passport':
      return 'passport_invalid';
  }
}

function removed(source: SourceType, before: Payload, organisationId: string | undefined): EventType | null {
  switch (source) {
    case 'pledges':
      if (isExcluded(before) || isOwn(before, organisationId) || isUnverified(before)) {
        return null;
      }
      return 'pledge_excluded';
    case 'wanted':
      return 'wanted_removed';
    case 'restrictions':
      return 'restriction_removed';
    case 'bankruptcy':
      return isClosed(before) ? null : 'bankruptcy_closed';
    case 'enforcement':
      return isClosed(before) ? null : 'enforcement_closed';
    case 'passport':
      return 'passport_invalid_removed';
    // A registration or accident record that disappears is a data correction, not news.
    case 'registration':
    case 'accidents':
      return null;
  }
}

function changed(
  source: SourceType,
  before: Payload,
  after: Payload,
  organisationId: string | undefined,
): EventType | null {
  switch (source) {
    case 'pledges':
      if (isOwn(after, organisationId) || isUnverified(after)) {
        return null;
      }
      if (isUnverified(before)) {
        // The registry source has just confirmed another creditor's registration: the news is now.
        return isExcluded(after) ? null : 'pledge_registered_other';
      }
      if (samePledge(before, after)) {
        return null;
      }
      if (isExcluded(after) && !isExcluded(before)) {
        return 'pledge_excluded';
      }
      if (isExcluded(before) && !isExcluded(after)) {
        return 'pledge_registered_other';
      }
      return 'pledge_changed';
    case 'bankruptcy':
      if (isClosed(after) !== isClosed(before)) {
        return isClosed(after) ? 'bankruptcy_closed' : 'bankruptcy_opened';
      }
      return 'finding_changed';
    case 'enforcement':
      if (isClosed(after) !== isClosed(before)) {
        return isClosed(after) ? 'enforcement_closed' : 'enforcement_opened';
      }
      return 'finding_changed';
    default:
      return 'finding_changed';
  }
}

/**
 * Whether an item's first check can raise any event of the source. diffFindings raises only the
 * source's own event types and those of no source (`finding_changed`), and on a first check only
 * those marked `onFirstCheck`: a source without one (the registration history) raises nothing then,
 * so a run need not even read its first findings back (diffDatasetBatch).
 */
export const raisesOnFirstCheck = (source: SourceType): boolean =>
  Object.values(EVENT_TYPES).some(
    (info) => (info.source === source || info.source === null) && info.onFirstCheck,
  );

/**
 * Turns one item's findings of one source, before and after a check, into events. On an item's first
 * check only events marked `onFirstCheck` are raised: a pledge, a wanted notice or a bankruptcy that
 * already exists is news to the lender, an ownership change years ago in the registration history is not.
 */
export function diffFindings(input: {
  source: SourceType;
  before: Finding[];
  after: Finding[];
  firstCheck: boolean;
  /** The checking organisation: its own pledges raise no «other creditor» events. */
  organisationId?: string;
}): EventDraft[] {
  const before = new Map(input.before.map((finding) => [finding.key, finding.payload as Payload]));
  const after = new Map(input.after.map((finding) => [finding.key, finding.payload as Payload]));
  const drafts: EventDraft[] = [];
  const push = (type: EventType | null, key: string, was: Payload | null, now: Payload | null) => {
    if (!type || (input.firstCheck && !EVENT_TYPES[type].onFirstCheck)) {
      return;
    }
    drafts.push({
      type,
      severity: EVENT_TYPES[type].severity,
      findingKey: key,
      before: was,
      after: now,
      firstCheck: input.firstCheck,
      demo: Boolean(now?.demo ?? was?.demo),
    });
  };
  for (const [key, payload] of after) {
    const previous = before.get(key);
    if (!previous) {
      push(added(input.source, payload, input.organisationId), key, null, payload);
    } else if (stableJson(previous) !== stableJson(payload)) {
      push(changed(input.source, previous, payload, input.organisationId), key, previous, payload);
    }
  }
  for (const [key, payload] of before) {
    if (!after.has(key)) {
      push(removed(input.source, payload, input.organisationId), key, payload, null);
    }
  }
  return drafts.sort((a, b) => (a.findingKey < b.findingKey ? -1 : a.findingKey > b.findingKey ? 1 : 0));
}
