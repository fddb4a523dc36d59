import type { ItemKind, ItemOrigin, ItemStatus } from '@pledgewatch/contract';
import type { ValidItemRow } from '@pledgewatch/contract/item-rules';
import { itemLastCheckedSql } from '../../db/item-last-check.ts';
import type { Queryable } from '../../db/pool.ts';
import { containsAny } from '../../lib/like-pattern.ts';
import { ANCHOR_STEP, anchoredPage } from './items-anchors.queries.ts';
import { sortIndexWalk } from './items-created-order.queries.ts';
import { pageFromTheEnd, REVERSE_WALK_MIN_OFFSET, sortedMatchesPage } from './items-pages.queries.ts';

export interface ItemRow {
  id: string;
  organisation_id: string;
  kind: ItemKind;
  document_type: string | null;
  identifier: string;
  label: string | null;
  contract_number: string | null;
  pledgor_name: string | null;
  status: ItemStatus;
  origin: ItemOrigin;
  upload_id: string | null;
  created_at: Date;
  updated_at: Date;
  archived_at: Date | null;
  last_checked_at: Date | null;
}

/** The item's last check: its own stamp or its range's (0030_range_check_stamps.sql); a few index probes per row. */
// `id` unqualified, as every query here names monitoring_items (or its alias m) alone.
const LAST_CHECKED_VALUE = itemLastCheckedSql('id');
const LAST_CHECKED = `${LAST_CHECKED_VALUE} AS last_checked_at`;

const ITEM_COLUMNS = `id, organisation_id, kind, document_type, identifier, label, contract_number, pledgor_name,
  status, origin, upload_id, created_at, updated_at, archived_at, ${LAST_CHECKED}`;

/**
 * The text a search matches: lower(identifier, label, contract number), stored by the table
 * (0025_items_search_text.sql) and indexed by monitoring_items_search_text_idx (trigrams).
 */
export const SEARCH_EXPRESSION = 'search_text';

/**
 * Sort keys → expressions; the values are the only text ever put into ORDER BY. With the tie-break by
 * id, each ORDER BY is exactly the columns of its index after (organisation_id, kind)
 * (monitoring_items_*_idx; identifier: monitoring_items_sort_identifier_idx, 0038 — the identity key
 * has no id among its columns).
 */
const SORT_COLUMNS = {
  createdAt: 'created_at',
  identifier: 'identifier',
  label: 'label',
  contractNumber: 'contract_number COLLATE "C"',
  // Sorted through the check ranges and the own stamps (lastCheckOrder).
  lastCheckedAt: 'last_checked_at',
} as const;

/** Delta rows of one organisation above which the list folds them (compact_monitoring_item_counts). */
const COUNT_ROWS_TO_COMPACT = 64;

/**
 * Exact number of the organisation's items of a kind in these statuses, from the counts table the
 * triggers keep (0002_portfolio.sql): a few rows summed instead of a count(*) over the portfolio.
 */
export async function countItems(
  db: Queryable,
  organisationId: string,
  kind: ItemKind,
  statuses: readonly ItemStatus[],
): Promise<number> {
  const { rows } = await db.query<{ total: number; deltas: number }>(
    `SELECT coalesce(sum(items) FILTER (WHERE kind = $2 AND status = ANY($3::text[])), 0)::bigint AS total,
            count(*)::int AS deltas
       FROM monitoring_item_counts WHERE organisation_id = $1`,
    [organisationId, kind, statuses],
  );
  const { total, deltas } = rows[0]!;
  if (deltas > COUNT_ROWS_TO_COMPACT) {
    await db.query('SELECT compact_monitoring_item_counts($1)', [organisationId]);
  }
  return total;
}

export type ItemSort = keyof typeof SORT_COLUMNS;

/**
 * The first `limit` items of a kind by last check, ties by id: ids and last checks
 * (0030_range_check_stamps.sql). Ranged items come range by range with their range's stamp
 * (ranged_items_by_check: ranges by stamp, a range's items by id); unranged items from the index
 * of their own stamps, one ordered index walk per status of `$3` (the status sits beside the stamp,
 * 0039). Each side is cut at `limit`, then the two are merged (the caller cuts the result). Items of
 * the statuses `$3` only (ranged items are all active); $1, $2: organisation, kind.
 */
export function lastCheckOrder(direction: 'ASC' | 'DESC', limit: string): string {
  return `SELECT id, k FROM (
      (SELECT item_id AS id, checked_at AS k
         FROM ranged_items_by_check($1, $2, ${direction === 'DESC'},
                                    CASE WHEN 'active' = ANY($3::text[]) THEN ${limit} ELSE 0 END))
      UNION ALL
      (SELECT o.item_id, o.last_checked_at FROM unnest($3::text[]) s (status) CROSS JOIN LATERAL (
         SELECT c.item_id, c.last_checked_at FROM monitoring_item_checks c
          WHERE c.organisation_id = $1 AND c.kind = $2 AND c.item_status = s.status AND c.unranged_since IS NOT NULL
          ORDER BY c.last_checked_at ${direction}, c.item_id ${direction} LIMIT ${limit}) o
        ORDER BY o.last_checked_at ${direction}, o.item_id ${direction} LIMIT ${limit})
    ) merged ORDER BY k ${direction}, id ${direction}`;
}

/**
 * Above this many matches (the planner's estimate from the statistics of the search index) a search
 * reports an estimated total: counting 200,000 matches exactly on every page costs more than the page.
 */
export const SEARCH_EXACT_TOTAL_MAX = 10_000;
/**
 * Rows of the sort index a frequent term's page walks before falling back to sorting the matches:
 * a few times the rows that hold the page if the matches were spread evenly, within these bounds.
 * A term whose matches cluster away from the start of the order (one make's VINs sort together)
 * fails the walk whatever its length, so a short walk wastes little.
 */
const SEARCH_WALK_MIN = 2_000;
const SEARCH_WALK_MAX = 20_000;

/** How far a frequent term's page walks the sort index (see SEARCH_WALK_MIN). */
export function searchWalkRows(options: { scopeRows: number; matches: number; pageEnd: number }): number {
  const spread = (options.pageEnd * Math.max(1, options.scopeRows)) / Math.max(1, options.matches);
  return Math.min(SEARCH_WALK_MAX, Math.max(SEARCH_WALK_MIN, Math.ceil(4 * spread)));
}

/** The planner's row estimate of a query: a few milliseconds, whatever the number of matches. */
async function estimateRows(db: Queryable, sql: string, params: unknown[]): Promise<number> {
  const { rows } = await db.query<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(
    `EXPLAIN (FORMAT JSON) ${sql}`,
    params,
  );
  return Math.round(rows[0]!['QUERY PLAN'][0].Plan['Plan Rows']);
}

/** An estimate shown as "about N": two significant digits. */
const roundEstimate = (n: number) => {
  const step = 10 ** Math.max(0, Math.floor(Math.log10(Math.max(n, 1))) - 1);
  return Math.round(n / step) * step;
};

export async function findItems(
  db: Queryable,
  filter: {
    organisationId: string;
    kind: ItemKind;
    statuses: readonly ItemStatus[];
    search?: string;
    sort: ItemSort;
    order: 'asc' | 'desc';
    limit: number;
    offset: number;
    /** Tests lower these to take the frequent-term and the from-the-end paths on a few rows. */
    exactTotalMax?: number;
    walkRows?: number;
    sortedStretch?: number;
    reverseFrom?: number;
    anchorFrom?: number;
    anchorStep?: number;
  },
): Promise<{ items: ItemRow[]; total: number; totalIsEstimate: boolean }> {
  const params: unknown[] = [filter.organisationId, filter.kind, filter.statuses];
  const scope = 'organisation_id = $1 AND kind = $2 AND status = ANY($3::text[])';
  let where = scope;
  let match = '';
  const search = filter.search?.trim().toLowerCase();
  if (search) {
    // Identifiers are stored without spaces and dashes: "45 06 123456" must find "4506123456".
    const compact = search.replace(/[\s\-–—№]+/g, '');
    const contains = containsAny(compact && compact !== search ? [search, compact] : [search]);
    match = contains.condition(SEARCH_EXPRESSION, params.length + 1);
    params.push(...contains.params);
    where += ` AND ${match}`;
  }
  const column = SORT_COLUMNS[filter.sort];
  const direction = filter.order === 'asc' ? 'ASC' : 'DESC';
  const limitAt = params.length + 1;
  const page = [...params, filter.limit, filter.offset];
  const order = `ORDER BY ${column} ${direction}, id ${direction}`;
  if (!search && filter.sort !== 'lastCheckedAt' && filter.offset >= (filter.anchorFrom ?? ANCHOR_STEP)) {
    // A deep page from the anchor before it; without anchors valid now, from the nearer end.
    const anchored = await anchoredPage<ItemRow>(db, {
      columns: ITEM_COLUMNS,
      where,
      params,
      column,
      nullable: filter.sort === 'label' || filter.sort === 'contractNumber',
      direction,
      sort: filter.sort,
      offset: filter.offset,
      limit: filter.limit,
      step: filter.anchorStep,
    });
    if (anchored) {
      return { ...anchored, totalIsEstimate: false };
    }
  }
  if (
    !search &&
    filter.sort !== 'lastCheckedAt' &&
    filter.offset >= (filter.reverseFrom ?? REVERSE_WALK_MIN_OFFSET)
  ) {
    const total = await countItems(db, filter.organisationId, filter.kind, filter.statuses);
    if (2 * filter.offset + filter.limit > total) {
      const items = await pageFromTheEnd<ItemRow>(db, {
        columns: ITEM_COLUMNS,
        where,
        params,
        column,
        direction,
        filter,
        total,
      });
      if (items) {
        return { items, total, totalIsEstimate: false };
      }
    }
  }
  if (!search) {
    const [items, total] = await Promise.all([
      db.query<ItemRow>(
        filter.sort === 'lastCheckedAt'
          ? `SELECT ${ITEM_COLUMNS} FROM monitoring_items WHERE id IN (SELECT id FROM (
               ${lastCheckOrder(direction, `($${limitAt}::int + $${limitAt + 1}::int)`)}
               LIMIT $${limitAt} OFFSET $${limitAt + 1}) page)
             ORDER BY last_checked_at ${direction}, id ${direction}`
          : // The skipped rows from the sort index alone (it carries the status, 0037), then the page's rows.
            `SELECT ${ITEM_COLUMNS} FROM monitoring_items WHERE id IN (
               SELECT id FROM ${sortIndexWalk({ where, column, direction, limit: `$${limitAt}::int + $${limitAt + 1}::int` })}
                ${order} LIMIT $${limitAt} OFFSET $${limitAt + 1})
             ${order}`,
        page,
      ),
      // The whole list: the counts table.
      countItems(db, filter.organisationId, filter.kind, filter.statuses),
    ]);
    return { items: items.rows, total, totalIsEstimate: false };
  }

  const matches = `SELECT 1 FROM monitoring_items WHERE ${where}`;
  const estimate = await estimateRows(db, matches, params);
  // The matches sorted: only their ids and sort keys (OFFSET 0 keeps the planner on the trigram
  // index rather than walking the sort index), then the page's rows. A few matches come from the
  // trigram index; many matches that cluster in the sort order end here too, as walking the sort
  // index would read most of the portfolio.
  const key = filter.sort === 'lastCheckedAt' ? LAST_CHECKED_VALUE : column;
  const sorted = (withTotal: boolean) =>
    db.query<ItemRow & { total?: number }>(
      `WITH page AS (
         SELECT id${withTotal ? ', count(*) OVER () AS total' : ''}
           FROM (SELECT id, ${key} AS k FROM monitoring_items WHERE ${where} OFFSET 0) hits
          ORDER BY k ${direction}, id ${direction} LIMIT $${limitAt} OFFSET $${limitAt + 1})
       SELECT ${ITEM_COLUMNS}${withTotal ? ', (SELECT max(total) FROM page)::int AS total' : ''}
         FROM monitoring_items WHERE id IN (SELECT id FROM page)
       ${order}`,
      page,
    );
  if (estimate < (filter.exactTotalMax ?? SEARCH_EXACT_TOTAL_MAX)) {
    // One pass over the matches gives the page and their number (a window count before the limit).
    const { rows } = await sorted(true);
    if (rows.length > 0 || filter.offset === 0) {
      const total = rows[0]?.total ?? 0;
      return { items: rows.map(({ total: _, ...item }) => item), total, totalIsEstimate: false };
    }
    const count = await db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM monitoring_items WHERE ${where}`,
      params,
    );
    return { items: [], total: count.rows[0]!.count, totalIsEstimate: false };
  }
  // An earlier page of this search kept its sorted matches (they cluster far down the order): the
  // page is there, no walk needed (a walk may also cross other organisations' rows).
  const sortedQuery = { ...filter, columns: ITEM_COLUMNS, where, params, key, direction };
  if (filter.sort !== 'lastCheckedAt') {
    const kept = await sortedMatchesPage<ItemRow>(db, { ...sortedQuery, keptOnly: true });
    if (kept) {
      return { ...kept, totalIsEstimate: false };
    }
  }
  // A frequent term: its matches are dense, so the page is usually among the first rows of the sort
  // index. Walk a bounded stretch of it; when the page is not there, sort the matches.
  const walkRows = Math.trunc(
    filter.walkRows ??
      searchWalkRows({
        scopeRows: await countItems(db, filter.organisationId, filter.kind, filter.statuses),
        matches: estimate,
        pageEnd: filter.offset + filter.limit,
      }),
  );
  const walked = await db.query<ItemRow>(
    filter.sort === 'lastCheckedAt'
      ? `SELECT ${ITEM_COLUMNS} FROM monitoring_items WHERE id IN (
           SELECT w.id FROM (${lastCheckOrder(direction, String(walkRows))} LIMIT ${walkRows}) w
             JOIN monitoring_items m ON m.id = w.id
            WHERE ${match}
            ORDER BY w.k ${direction}, w.id ${direction} LIMIT $${limitAt} OFFSET $${limitAt + 1})
         ORDER BY last_checked_at ${direction}, id ${direction}`
      : `SELECT ${ITEM_COLUMNS} FROM monitoring_items WHERE id IN (
           SELECT id FROM ${sortIndexWalk({ where: scope, column, direction, limit: String(walkRows), extra: SEARCH_EXPRESSION })}
            WHERE ${match}
            ${order} LIMIT $${limitAt} OFFSET $${limitAt + 1})
         ${order}`,
    page,
  );
  let items = walked.rows;
  if (items.length < filter.limit && filter.sort !== 'lastCheckedAt') {
    // The matches cluster away from the start of the order: sort them all once, keep the stretch
    // around this page for the next pages and repeats, with the exact number of matches. (Not for
    // the last-check order: check times change without a revision.)
    const kept = await sortedMatchesPage<ItemRow>(db, sortedQuery);
    if (kept) {
      return { ...kept, totalIsEstimate: false };
    }
  }
  if (items.length < filter.limit) {
    items = (await sorted(false)).rows;
  }
  if (items.length < filter.limit && (items.length > 0 || filter.offset === 0)) {
    // The last page: the number of matches is known exactly.
    return { items, total: filter.offset + items.length, totalIsEstimate: false };
  }
  const seen = filter.offset + items.length + 1;
  return { items, total: Math.max(roundEstimate(estimate), seen), totalIsEstimate: true };
}

/**
 * Merges the search index entries that inserts left in the trigram indexes' pending lists (the
 * items' search text and the statistics label dictionary) into the indexes proper. Inserts merge
 * the lists themselves beyond 4 MB (0040); this takes the last few MB an import leaves, which every
 * search would read until then.
 */
export async function mergeSearchIndexes(db: Queryable): Promise<void> {
  await db.query(
    `SELECT gin_clean_pending_list('monitoring_items_search_text_idx'::regclass),
            gin_clean_pending_list('statistics_labels_search_idx'::regclass)`,
  );
}

export async function getItem(
  db: Queryable,
  organisationId: string,
  id: string,
): Promise<ItemRow | undefined> {
  const { rows } = await db.query<ItemRow>(
    `SELECT ${ITEM_COLUMNS} FROM monitoring_items WHERE organisation_id = $1 AND id = $2`,
    [organisationId, id],
  );
  return rows[0];
}

export interface UpsertedItemRow extends ItemRow {
  inserted: boolean;
}

/**
 * Adds rows (distinct identities only); an archived item with the same identity is put back on
 * monitoring. Items already active or paused are left alone and are absent from the result.
 */
export async function upsertItems(
  db: Queryable,
  options: {
    organisationId: string;
    userId: string | null;
    origin: ItemOrigin;
    uploadId?: string | null;
    rows: ValidItemRow[];
  },
): Promise<UpsertedItemRow[]> {
  const { rows } = options;
  if (rows.length === 0) {
    return [];
  }
  const result = await db.query<UpsertedItemRow>(
    `INSERT INTO monitoring_items AS m
       (organisation_id, kind, document_type, identifier, label, contract_number, pledgor_name, origin, upload_id, created_by)
     SELECT $1, r.kind, r.document_type, r.identifier, r.label, r.contract_number, r.pledgor_name, $2, $3, $4
       FROM unnest($5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[])
         AS r (kind, document_type, identifier, label, contract_number, pledgor_name)
     ON CONFLICT (organisation_id, kind, coalesce(document_type, ''), identifier) DO UPDATE
       SET status = 'active', archived_at = NULL, updated_at = now(),
           label = coalesce(excluded.label, m.label),
           contract_number = coalesce(excluded.contract_number, m.contract_number),
           pledgor_name = coalesce(excluded.pledgor_name, m.pledgor_name)
       WHERE m.status = 'archived'
     RETURNING ${ITEM_COLUMNS}, (xmax = 0) AS inserted`,
    [
      options.organisationId,
      options.origin,
      options.uploadId ?? null,
      options.userId,
      rows.map((r) => r.kind),
      rows.map((r) => r.documentType),
      rows.map((r) => r.identifier),
      rows.map((r) => r.label),
      rows.map((r) => r.contractNumber),
      rows.map((r) => r.pledgorName),
    ],
  );
  return result.rows;
}

/** Items of the organisation with these identities (kind, document type, identifier). */
export async function findItemsByIdentity(
  db: Queryable,
  organisationId: string,
  identities: Pick<ValidItemRow, 'kind' | 'documentType' | 'identifier'>[],
): Promise<ItemRow[]> {
  if (identities.length === 0) {
    return [];
  }
  const { rows } = await db.query<ItemRow>(
    `SELECT ${ITEM_COLUMNS} FROM monitoring_items m
      WHERE organisation_id = $1
        AND (kind, coalesce(document_type, ''), identifier) IN (
          SELECT * FROM unnest($2::text[], $3::text[], $4::text[]))`,
    [
      organisationId,
      identities.map((r) => r.kind),
      identities.map((r) => r.documentType ?? ''),
      identities.map((r) => r.identifier),
    ],
  );
  return rows;
}

export async function updateItem(
  db: Queryable,
  organisationId: string,
  id: string,
  fields: Partial<{
    label: string | null;
    contract_number: string | null;
    pledgor_name: string | null;
    status: ItemStatus;
  }>,
): Promise<ItemRow | undefined> {
  const entries = Object.entries(fields).filter(([, value]) => value !== undefined);
  // Column names come from the typed keys above, never from input.
  const sets = entries.map(([column], index) => `${column} = $${index + 3}`);
  if ('status' in fields && fields.status !== undefined) {
    sets.push(`archived_at = CASE WHEN $${entries.findIndex(([c]) => c === 'status') + 3} = 'archived'
      THEN coalesce(archived_at, now()) END`);
  }
  const { rows } = await db.query<ItemRow>(
    `UPDATE monitoring_items SET ${[...sets, 'updated_at = now()'].join(', ')}
      WHERE organisation_id = $1 AND id = $2 RETURNING ${ITEM_COLUMNS}`,
    [organisationId, id, ...entries.map(([, value]) => value)],
  );
  return rows[0];
}

/** Sets the status of the organisation's items among `ids`; returns the ids that exist. */
export async function updateItemsStatus(
  db: Queryable,
  organisationId: string,
  ids: string[],
  status: ItemStatus,
): Promise<{ found: string[]; updated: number }> {
  const { rows } = await db.query<{ id: string; changed: boolean }>(
    `WITH target AS (
       SELECT id, status <> $3 AS changed FROM monitoring_items
        WHERE organisation_id = $1 AND id = ANY($2::uuid[]) FOR UPDATE
     ), done AS (
       UPDATE monitoring_items m
          SET status = $3, updated_at = now(),
              archived_at = CASE WHEN $3 = 'archived' THEN now() END
         FROM target t WHERE m.id = t.id AND t.changed
     )
     SELECT id, changed FROM target`,
    [organisationId, ids, status],
  );
  return { found: rows.map((r) => r.id), updated: rows.filter((r) => r.changed).length };
}
