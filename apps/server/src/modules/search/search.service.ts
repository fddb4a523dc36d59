import {
  DOCUMENT_TYPE_LABELS,
  EVENT_TYPES,
  type EventType,
  ITEM_STATUS_LABELS,
  ONE_TIME_CHECK_STATUS_LABELS,
  PACKAGE_STATUS_LABELS,
  PLEDGE_EVENT_KIND_LABELS,
  SEARCH_COUNT_CAP,
  SEARCH_KIND_LABELS,
  type SearchGroup,
  type SearchHit,
  type SearchKind,
  type SearchResponse,
} from '@pledgewatch/contract';
import { type DocumentType, formatDocument } from '@pledgewatch/identifiers';
import type { Queryable } from '../../db/pool.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { containsAny } from '../../lib/like-pattern.ts';
import { formatMoscowDate } from '../../lib/moscow-time.ts';
import {
  type Counted,
  type SearchFilter,
  searchItemsAndEvents,
  searchOneTimeChecks,
  searchPackages,
  searchPledgeEvents,
} from './search.queries.ts';

const joined = (...parts: (string | null | undefined)[]) => parts.filter(Boolean).join(' · ') || null;
const hit = (fields: Partial<SearchHit> & Pick<SearchHit, 'id' | 'title'>): SearchHit => ({
  details: null,
  itemId: null,
  itemKind: null,
  at: null,
  ...fields,
});

function group<T>(
  kind: SearchKind,
  found: Counted<T>,
  toHit: (row: T) => SearchHit,
  more = false,
): SearchGroup {
  return {
    kind,
    label: SEARCH_KIND_LABELS[kind],
    total: Math.min(found.total, SEARCH_COUNT_CAP),
    more: more || found.total > SEARCH_COUNT_CAP,
    hits: found.rows.map(toHit),
  };
}

/**
 * The header search: every kind the organisation's lists show, with each kind's count (at most
 * SEARCH_COUNT_CAP, `more` above it) and its first `limit` hits. Every role reads every list, so a
 * viewer finds what an analyst finds; what may be done with a hit is up to its screen.
 */
export async function search(options: {
  db: Queryable;
  auth: AuthContext;
  q: string;
  limit: number;
}): Promise<SearchResponse> {
  const typed = options.q.trim().toLowerCase();
  // VINs and document numbers are stored without spaces and dashes: «45 06 123456» finds «4506123456».
  // Only a query that can be one of them gets that second pattern (each costs a trigram index scan);
  // a contract or registration number is matched as typed.
  const stripped = typed.replace(/[\s\-–—№]+/g, '');
  const compact = /^[0-9a-z]+$/.test(stripped) ? stripped : typed;
  const filter: SearchFilter = {
    organisationId: options.auth.organisationId,
    match: containsAny(compact && compact !== typed ? [typed, compact] : [typed]),
    exact: compact || typed,
    limit: options.limit,
    cap: SEARCH_COUNT_CAP,
  };
  const number = /^\d{1,9}$/.test(compact) ? Number(compact) : null;
  const [{ items, events }, pledgeEvents, packages, checks] = await Promise.all([
    searchItemsAndEvents(options.db, filter),
    searchPledgeEvents(options.db, filter),
    searchPackages(options.db, { ...filter, number }),
    searchOneTimeChecks(options.db, filter),
  ]);

  return {
    query: options.q.trim(),
    groups: [
      group('items', items, (row) =>
        hit({
          id: row.id,
          title: row.document_type
            ? formatDocument(row.document_type as DocumentType, row.identifier)
            : row.identifier,
          details: joined(
            row.document_type ? DOCUMENT_TYPE_LABELS[row.document_type as DocumentType] : null,
            row.label,
            row.contract_number,
            ITEM_STATUS_LABELS[row.status],
          ),
          itemId: row.id,
          itemKind: row.kind,
        }),
      ),
      group(
        'events',
        events,
        (row) =>
          hit({
            id: row.id,
            title: row.item_identifier,
            details: joined(
              EVENT_TYPES[row.event_type as EventType]?.label ?? row.event_type,
              row.item_label,
            ),
            itemId: row.item_id,
            itemKind: row.item_kind,
            at: new Date(row.detected_at).toISOString(),
          }),
        // Past the cap of items only the first items' events were counted.
        items.total > SEARCH_COUNT_CAP,
      ),
      group('pledgeEvents', pledgeEvents, (row) =>
        hit({
          id: row.id,
          title: row.registered_number ?? row.registration_number ?? row.contract_number,
          details: joined(
            PLEDGE_EVENT_KIND_LABELS[row.kind],
            `договор ${row.contract_number}`,
            row.vins.join(', '),
            row.pledgor_name,
            formatMoscowDate(new Date(`${row.notification_date}T12:00:00Z`)),
          ),
        }),
      ),
      group('packages', packages, (row) =>
        hit({
          id: row.id,
          title: row.name,
          details: PACKAGE_STATUS_LABELS[row.status],
          at: row.created_at.toISOString(),
        }),
      ),
      group('oneTimeChecks', checks, (row) =>
        hit({
          id: row.id,
          title: row.number,
          details: joined(row.identifier, ONE_TIME_CHECK_STATUS_LABELS[row.status]),
          itemKind: row.kind,
          at: row.created_at.toISOString(),
        }),
      ),
    ],
  };
}
