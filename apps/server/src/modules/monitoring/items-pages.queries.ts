import { itemsRevisionSql } from '../../db/item-revision.ts';
import type { Queryable } from '../../db/pool.ts';
import { sortIndexWalk } from './items-created-order.queries.ts';
import { cachedMatches, type SortedMatches, sortOnce } from './sorted-matches-cache.ts';

// The items list's paths for pages far from the start of an order (issue #15): a page of the whole
// list past its middle, and a frequent term whose matches sit far down the order.

/**
 * From this offset on, a page of the whole list past its middle is read from the other end of the
 * sort index: the last of a million items costs a walk of 25 rows instead of a million.
 */
export const REVERSE_WALK_MIN_OFFSET = 1_000;

/** A page of the whole list (no search) in one column's order. */
export interface WholeListQuery {
  /** The item columns to read (ITEM_COLUMNS of monitoring.queries.ts). */
  columns: string;
  where: string;
  params: unknown[];
  /** The sort expression (SORT_COLUMNS of monitoring.queries.ts). */
  column: string;
  direction: 'ASC' | 'DESC';
}

/**
 * A page of the whole list (no search) counted from its end: the index walked in the opposite
 * order. The offset from the end comes from `total` (the counts table, 0002) as constants the
 * planner can use; the statement reads the counts again in its own snapshot, and a page read while
 * the total changed is not returned (undefined: the caller reads the page the usual way).
 */
export async function pageFromTheEnd<ItemRow extends { id: string }>(
  db: Queryable,
  query: WholeListQuery & {
    filter: { limit: number; offset: number };
    total: number;
  },
): Promise<ItemRow[] | undefined> {
  const { columns, where, params, column, direction, filter, total } = query;
  const reverse = direction === 'ASC' ? 'DESC' : 'ASC';
  const at = params.length + 1;
  const { rows } = await db.query<ItemRow & { total: number }>(
    `SELECT r.total, page.* FROM
       (SELECT coalesce(sum(items) FILTER (WHERE kind = $2 AND status = ANY($3::text[])), 0)::bigint AS total
          FROM monitoring_item_counts WHERE organisation_id = $1) r
       LEFT JOIN (SELECT ${columns} FROM monitoring_items WHERE id IN (
                    SELECT id FROM ${sortIndexWalk({ where, column, direction: reverse, limit: `$${at}::int + $${at + 1}::int` })}
                     ORDER BY ${column} ${reverse}, id ${reverse} LIMIT $${at} OFFSET $${at + 1})) page ON true
      ORDER BY page.${column} ${direction}, page.id ${direction}`,
    [
      ...params,
      Math.max(0, Math.min(filter.limit, total - filter.offset)),
      Math.max(0, total - filter.offset - filter.limit),
    ],
  );
  if (rows[0]?.total !== total) {
    return undefined;
  }
  // The statement's own total stays on each row: the caller reads the item's columns only.
  return rows.filter((row) => row.id);
}

/** Matches kept per sorted stretch (sorted-matches-cache.ts): 40 pages of 25. */
const SORTED_STRETCH = 1_000;
/** Delta rows of one organisation's revision above which they are folded (compact_monitoring_item_revisions). */
const REVISION_ROWS_TO_COMPACT = 64;
/** The revision of the organisation's list (0036), as text. */
const REVISION = `${itemsRevisionSql('$1')}::text`;

/**
 * Matches from `start` on (at most `span`) in the order, their number, and the revision they were
 * read at, in one statement. The window count runs over every match, so the number is exact.
 */
async function sortMatches(
  db: Queryable,
  query: { where: string; params: unknown[]; key: string; direction: string; start: number; span: number },
): Promise<SortedMatches> {
  const { where, params, key, direction, start, span } = query;
  const at = params.length + 1;
  const { rows } = await db.query<{
    revision: string;
    id: string | null;
    total: number | null;
    deltas: number;
  }>(
    `WITH hits AS (
       SELECT id, k, count(*) OVER () AS total
         FROM (SELECT id, ${key} AS k FROM monitoring_items WHERE ${where} OFFSET 0) h
        ORDER BY k ${direction}, id ${direction} LIMIT $${at} OFFSET $${at + 1})
     SELECT r.revision, r.deltas, hits.id, hits.total::int AS total
       FROM (SELECT ${REVISION} AS revision,
                    (SELECT count(*)::int FROM monitoring_item_revisions WHERE organisation_id = $1) AS deltas) r
       LEFT JOIN hits ON true
      ORDER BY hits.k ${direction}, hits.id ${direction}`,
    [...params, span, start],
  );
  const { revision, deltas } = rows[0]!;
  if (deltas > REVISION_ROWS_TO_COMPACT) {
    await db.query('SELECT compact_monitoring_item_revisions($1)', [params[0]]);
  }
  const ids = rows.flatMap((row) => (row.id ? [row.id] : []));
  if (ids.length > 0 || start === 0) {
    return { revision, start, ids, total: rows[0]!.total ?? 0 };
  }
  // Past the last match: only their number.
  const count = await db.query<{ revision: string; total: number }>(
    `SELECT ${REVISION} AS revision, count(*)::int AS total FROM monitoring_items WHERE ${where}`,
    params,
  );
  return { ...count.rows[0]!, start, ids };
}

/**
 * A page of a frequent term's matches sorted, from the kept stretch when the organisation's list
 * has not changed since it was read (checked in the statement that reads the page), else sorted
 * afresh. Identical to sorting every match on each call.
 */
export async function sortedMatchesPage<ItemRow extends { id: string }>(
  db: Queryable,
  query: {
    /** The item columns to read (ITEM_COLUMNS of monitoring.queries.ts). */
    columns: string;
    where: string;
    params: unknown[];
    key: string;
    direction: string;
    sort: string;
    offset: number;
    limit: number;
    sortedStretch?: number;
    /** Only a kept stretch that is still valid: no sorting. */
    keptOnly?: boolean;
  },
): Promise<{ items: ItemRow[]; total: number } | undefined> {
  const stretch = query.sortedStretch ?? SORTED_STRETCH;
  const start = Math.floor(query.offset / stretch) * stretch;
  const span = stretch + query.limit;
  const cacheKey = JSON.stringify([query.params, query.sort, query.direction, start, span]);
  let entry = cachedMatches(cacheKey);
  if (!entry && query.keptOnly) {
    return undefined;
  }
  for (let attempt = 0; ; attempt++) {
    if (!entry) {
      entry = await sortOnce(cacheKey, () => sortMatches(db, { ...query, start, span }));
    }
    const ids = entry.ids.slice(query.offset - start, query.offset - start + query.limit);
    const { rows } = await db.query<ItemRow & { revision: string }>(
      `SELECT r.revision, m.* FROM (SELECT ${REVISION} AS revision) r
         LEFT JOIN LATERAL (SELECT ${query.columns} FROM monitoring_items WHERE id = ANY($2::uuid[])) m
           ON r.revision = $3`,
      [query.params[0], ids, entry.revision],
    );
    const byId = new Map(rows.filter((row) => row.id).map((row) => [row.id, row]));
    const items = ids.flatMap((id) => byId.get(id) ?? []);
    if (rows[0]!.revision === entry.revision && items.length === ids.length) {
      return { items, total: entry.total };
    }
    // The list changed since the stretch was read (or while it was): read it again, a few times.
    if (attempt === 2 || query.keptOnly) {
      return undefined;
    }
    // A stretch another caller sorted meanwhile, else a sort (shared with callers asking now).
    const kept = cachedMatches(cacheKey);
    entry = kept && kept.revision !== entry.revision ? kept : undefined;
  }
}
