import { itemsRevisionSql } from '../../db/item-revision.ts';
import type { Queryable } from '../../db/pool.ts';
import type { WholeListQuery } from './items-pages.queries.ts';

// Pages deep inside the whole list (no search) in a column's order (issue #31). An OFFSET walks
// every row before the page: a page in the middle of a million items walked 480,000 index entries
// (from the nearer end), 80–200 ms whatever the plan. Anchors — every ANCHOR_STEP-th row's sort key
// and id in ascending order — turn any page into one index descent to the anchor before it and a
// walk of fewer than ANCHOR_STEP + page rows.

/** Rows between anchors: the longest walk of an anchored page (plus the page). */
export const ANCHOR_STEP = 1_000;
/**
 * After a set of anchors goes out of date, a new set is read at most once per this many times the
 * last reading's duration: while an import changes the list every second, deep pages walk as before
 * instead of each re-reading the whole order.
 */
const ANCHOR_COOLDOWN_FACTOR = 10;
/** Anchor sets kept per server process (each ~1 id and key per ANCHOR_STEP rows: ~100 KB at 1M). */
const ANCHOR_SETS_MAX = 32;

interface Anchors {
  /** The revision of the organisation's list (0036) the anchors were read at. */
  revision: string;
  /** Rows in the scope at that revision. */
  total: number;
  /** Sort key (as text, null for a null key) and id of the rows at ascending positions 0, STEP, 2·STEP… */
  keys: (string | null)[];
  ids: string[];
}

const anchorSets = new Map<string, Anchors>();
const reading = new Map<string, Promise<void>>();
/** When each key's last reading ended and how long it took (ms), for the cooldown. */
const lastReading = new Map<string, { endedAt: number; ms: number }>();

const REVISION = `${itemsRevisionSql('$1')}::text`;

/** Reads every ANCHOR_STEP-th row of the order in one index-only walk, with the revision and total in its snapshot. */
async function readAnchors(
  db: Queryable,
  query: { where: string; params: unknown[]; column: string; step: number },
): Promise<Anchors> {
  const { where, params, column, step } = query;
  const { rows } = await db.query<{ revision: string; total: number; k: string | null; id: string | null }>(
    `SELECT r.revision, r.total, a.k, a.id
       FROM (SELECT ${REVISION} AS revision,
                    (SELECT coalesce(sum(items) FILTER (WHERE kind = $2 AND status = ANY($3::text[])), 0)::int
                       FROM monitoring_item_counts WHERE organisation_id = $1) AS total) r
       LEFT JOIN (SELECT k, id, pos FROM (
                    SELECT (${column})::text AS k, id, row_number() OVER (ORDER BY ${column}, id) - 1 AS pos
                      FROM monitoring_items WHERE ${where}) o
                   WHERE pos % ${step} = 0) a ON true
      ORDER BY a.pos`,
    params,
  );
  const { revision, total } = rows[0]!;
  const anchors = rows.filter((row) => row.id);
  return { revision, total, keys: anchors.map((row) => row.k), ids: anchors.map((row) => row.id!) };
}

/**
 * The kept anchors of `key` unless they are `stale`; else a fresh reading (one at a time per key:
 * callers asking meanwhile wait for it rather than each walk the list beside it), unless the
 * cooldown says the list changes faster than it can be read: then undefined, and the page walks.
 */
async function anchorsFor(
  db: Queryable,
  key: string,
  query: { where: string; params: unknown[]; column: string; step: number },
  stale: Anchors | undefined,
): Promise<Anchors | undefined> {
  const kept = anchorSets.get(key);
  if (kept && kept !== stale) {
    return kept;
  }
  const running = reading.get(key);
  if (running) {
    await running;
    const read = anchorSets.get(key);
    return read && read !== stale ? read : undefined;
  }
  const last = lastReading.get(key);
  if (last && performance.now() - last.endedAt < ANCHOR_COOLDOWN_FACTOR * last.ms) {
    return undefined;
  }
  const startedAt = performance.now();
  const own = readAnchors(db, query)
    .then((anchors) => {
      anchorSets.delete(key);
      anchorSets.set(key, anchors);
      while (anchorSets.size > ANCHOR_SETS_MAX) {
        anchorSets.delete(anchorSets.keys().next().value!);
      }
    })
    // A failed reading (the pool closing, a statement cancelled) leaves the pages walking.
    .catch(() => {})
    .finally(() => {
      reading.delete(key);
      lastReading.set(key, { endedAt: performance.now(), ms: performance.now() - startedAt });
    });
  reading.set(key, own);
  await own;
  return anchorSets.get(key);
}

/** Resolves when the anchor readings under way have ended (tests). */
export async function anchorsRead(): Promise<void> {
  await Promise.all(reading.values());
}

/**
 * The page at `offset` of the whole list in `column`'s order, from the anchor before it, or
 * undefined when no anchors valid for the list as it is now are at hand (the caller walks). The
 * statement checks the anchors' revision in its own snapshot, so a page is never read from
 * anchors of another version of the list.
 */
export async function anchoredPage<ItemRow extends { id: string }>(
  db: Queryable,
  query: WholeListQuery & {
    /** The column may be null (nulls come last in ascending order, as ORDER BY puts them). */
    nullable: boolean;
    sort: string;
    offset: number;
    limit: number;
    /** Tests lower it to anchor a few rows. */
    step?: number;
  },
): Promise<{ items: ItemRow[]; total: number } | undefined> {
  const { columns, where, params, column, direction, offset, limit } = query;
  const step = query.step ?? ANCHOR_STEP;
  const key = JSON.stringify([params, query.sort, step]);
  let stale: Anchors | undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    const anchors = await anchorsFor(db, key, { where, params, column, step }, stale);
    if (!anchors) {
      return undefined;
    }
    // The page's rows at ascending positions [from, to).
    const end = direction === 'ASC' ? offset + limit : anchors.total - offset;
    const from = Math.max(0, direction === 'ASC' ? offset : anchors.total - offset - limit);
    const to = Math.min(end, anchors.total);
    if (to <= from) {
      // Past the end (by the anchors' total, which may have changed since): the caller's path.
      return undefined;
    }
    const index = Math.min(Math.floor(from / step), anchors.ids.length - 1);
    if (index < 0) {
      return undefined;
    }
    const anchorKey = anchors.keys[index] ?? null;
    const skip = from - index * step;
    const at = params.length + 1;
    const bound = `$${at + 3}::int + $${at + 4}::int`;
    // Rows from the anchor on: by (key, id) while keys are non-null, then the null keys by id.
    const fromAnchor =
      anchorKey === null
        ? `SELECT id, ${column} AS k FROM monitoring_items
            WHERE ${where} AND ${column} IS NULL AND id >= $${at + 2}::uuid AND $${at + 1}::text IS NULL
            ORDER BY ${column}, id LIMIT ${bound}`
        : `(SELECT id, ${column} AS k FROM monitoring_items
             WHERE ${where} AND ROW(${column}, id) >= ROW($${at + 1}, $${at + 2}::uuid) ORDER BY ${column}, id LIMIT ${bound})` +
          (query.nullable
            ? ` UNION ALL (SELECT id, ${column} AS k FROM monitoring_items
                            WHERE ${where} AND ${column} IS NULL ORDER BY ${column}, id LIMIT ${bound})`
            : '');
    const { rows } = await db.query<ItemRow & { revision: string }>(
      `SELECT r.revision, page.* FROM (SELECT ${REVISION} AS revision) r
         LEFT JOIN LATERAL (
           SELECT ${columns} FROM monitoring_items WHERE id IN (
             SELECT id FROM (${fromAnchor}) w ORDER BY k, id LIMIT $${at + 4} OFFSET $${at + 3})) page
           ON r.revision = $${at}
        ORDER BY page.${column} ${direction}, page.id ${direction}`,
      [...params, anchors.revision, anchorKey, anchors.ids[index], skip, to - from],
    );
    if (rows[0]!.revision === anchors.revision) {
      // The anchors' total is the list's at the page's revision.
      return { items: rows.filter((row) => row.id), total: anchors.total };
    }
    stale = anchors;
  }
  return undefined;
}

/** Forgets every kept anchor set (tests). */
export function forgetAnchors(): void {
  anchorSets.clear();
  lastReading.clear();
}
