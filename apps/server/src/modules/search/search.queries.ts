import type { Queryable } from '../../db/pool.ts';
import type { ContainsMatch } from '../../lib/like-pattern.ts';

/**
 * The header search's SQL: one query per kind, each scoped by the organisation and answered by a
 * trigram index (items 0025, registry and one-time checks 0096). A kind's matches are taken at most
 * `cap + 1` at a time, so a frequent term («xta», a whole portfolio) costs the same as a rare one:
 * the count stops there and the hits are sorted among those rows only.
 */
export interface SearchFilter {
  organisationId: string;
  /** Contains the query as typed or, when it differs, without spaces and dashes (lower case). */
  match: ContainsMatch;
  /** The query in lower case, to put an exact identifier or number first. */
  exact: string;
  /** Hits to return. */
  limit: number;
  /** Matches counted at most (one more is read to know there are more). */
  cap: number;
}

export interface Counted<T> {
  rows: T[];
  total: number;
}

/** One trigram index condition per text (a BitmapOr of the index for two), see containsAny. */
const matches = (expression: string, filter: SearchFilter, first: number) =>
  `(${filter.match.condition(expression, first)})`;

/** The item search text of 0025 (the expression the items list matches too). */
const ITEM_MATCH = (filter: SearchFilter) => matches('search_text', filter, 5);
const PLEDGE_EVENT_TEXT =
  'pw_pledge_event_search_text(contract_number, registration_number, registered_number, pledgor_identifier, vins)';

const params = (filter: SearchFilter) => [
  filter.organisationId,
  filter.cap + 1,
  filter.limit,
  filter.exact,
  ...filter.match.params,
];

async function counted<T>(db: Queryable, sql: string, values: unknown[]): Promise<Counted<T>> {
  const { rows } = await db.query<T & { total: number }>(sql, values);
  return { rows, total: rows[0]?.total ?? 0 };
}

export interface ItemHitRow {
  id: string;
  kind: 'vin' | 'document';
  document_type: string | null;
  identifier: string;
  label: string | null;
  contract_number: string | null;
  status: 'active' | 'paused' | 'archived';
}

export interface EventHitRow {
  id: string;
  item_id: string;
  item_kind: 'vin' | 'document';
  item_identifier: string;
  item_label: string | null;
  event_type: string;
  /** ISO text (read through json). */
  detected_at: string;
}

/**
 * Items and the events of the same items in one statement: the trigram match, the costly part for a
 * frequent term, is done once. `itemsCapped`: more items matched than the cap, so the events counted
 * are those of the first items only.
 */
export async function searchItemsAndEvents(
  db: Queryable,
  filter: SearchFilter,
): Promise<{ items: Counted<ItemHitRow>; events: Counted<EventHitRow> }> {
  const { rows } = await db.query<{
    items: ItemHitRow[];
    item_total: number;
    events: EventHitRow[];
    event_total: number;
  }>(
    `WITH found AS MATERIALIZED (
       SELECT id, kind, document_type, identifier, label, contract_number, status, created_at FROM monitoring_items
        WHERE organisation_id = $1 AND ${ITEM_MATCH(filter)} LIMIT $2),
     found_events AS MATERIALIZED (
       SELECT e.id, e.item_id, e.event_type, e.detected_at FROM found i
         JOIN monitoring_events e ON e.item_id = i.id AND e.organisation_id = $1 LIMIT $2),
     item_hits AS (
       SELECT id, kind, document_type, identifier, label, contract_number, status FROM found
        ORDER BY lower(identifier) = $4 DESC, created_at DESC, id LIMIT $3),
     event_hits AS (
       SELECT f.id, f.item_id, i.kind AS item_kind, i.identifier AS item_identifier, i.label AS item_label,
              f.event_type, f.detected_at
         FROM found_events f JOIN found i ON i.id = f.item_id
        ORDER BY lower(i.identifier) = $4 DESC, f.detected_at DESC, f.id LIMIT $3)
     SELECT (SELECT coalesce(json_agg(item_hits), '[]') FROM item_hits) AS items,
            (SELECT count(*) FROM found)::int AS item_total,
            (SELECT coalesce(json_agg(event_hits), '[]') FROM event_hits) AS events,
            (SELECT count(*) FROM found_events)::int AS event_total`,
    params(filter),
  );
  const row = rows[0]!;
  return {
    items: { rows: row.items, total: row.item_total },
    events: { rows: row.events, total: row.event_total },
  };
}

export interface PledgeEventHitRow {
  id: string;
  kind: 'creation' | 'change' | 'exclusion';
  contract_number: string;
  registration_number: string | null;
  registered_number: string | null;
  vins: string[];
  notification_date: string;
  pledgor_name: string;
}

export function searchPledgeEvents(db: Queryable, filter: SearchFilter): Promise<Counted<PledgeEventHitRow>> {
  return counted(
    db,
    `WITH found AS MATERIALIZED (
       SELECT id, kind, contract_number, registration_number, registered_number, vins,
              to_char(notification_date, 'YYYY-MM-DD') AS notification_date, pledgor_name, created_at
         FROM pledge_events WHERE organisation_id = $1 AND ${matches(PLEDGE_EVENT_TEXT, filter, 5)} LIMIT $2)
     SELECT id, kind, contract_number, registration_number, registered_number, vins, notification_date,
            pledgor_name, (SELECT count(*) FROM found)::int AS total
       FROM found
      ORDER BY (lower(contract_number) = $4 OR lower(coalesce(registration_number, '')) = $4) DESC,
               notification_date DESC, created_at DESC, id LIMIT $3`,
    params(filter),
  );
}

export interface PackageHitRow {
  id: string;
  number: number;
  name: string;
  status: 'draft' | 'ready' | 'sent' | 'registered' | 'rejected';
  created_at: Date;
}

/** Packages by number or name, and the packages holding a matched registry notification. */
export function searchPackages(
  db: Queryable,
  filter: SearchFilter & { number: number | null },
): Promise<Counted<PackageHitRow>> {
  const numberAt = 5 + filter.match.params.length;
  return counted(
    db,
    `WITH found AS MATERIALIZED (
       SELECT id, number, name, status, created_at FROM pledge_packages p
        WHERE organisation_id = $1
          AND (${matches('lower(name)', filter, 5)} OR number = $${numberAt}::int
               OR id IN (SELECT package_id FROM pledge_events
                          WHERE organisation_id = $1 AND package_id IS NOT NULL
                            AND ${matches(PLEDGE_EVENT_TEXT, filter, 5)}))
        LIMIT $2)
     SELECT id, number, name, status, created_at, (SELECT count(*) FROM found)::int AS total
       FROM found ORDER BY coalesce(number = $${numberAt}::int, false) DESC, lower(name) = $4 DESC, created_at DESC, id LIMIT $3`,
    [...params(filter), filter.number],
  );
}

export interface OneTimeCheckHitRow {
  id: string;
  number: string;
  kind: 'vin' | 'document';
  identifier: string;
  status: 'completed' | 'partial' | 'failed';
  created_at: Date;
}

export function searchOneTimeChecks(
  db: Queryable,
  filter: SearchFilter,
): Promise<Counted<OneTimeCheckHitRow>> {
  return counted(
    db,
    `WITH found AS MATERIALIZED (
       SELECT id, number, kind, identifier, status, created_at FROM one_time_checks
        WHERE organisation_id = $1 AND ${matches("lower(number || ' ' || identifier)", filter, 5)} LIMIT $2)
     SELECT id, number, kind, identifier, status, created_at, (SELECT count(*) FROM found)::int AS total
       FROM found ORDER BY (lower(number) = $4 OR lower(identifier) = $4) DESC, created_at DESC, id LIMIT $3`,
    params(filter),
  );
}
