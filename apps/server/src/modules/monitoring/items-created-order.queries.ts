import type { Queryable } from '../../db/pool.ts';

// The items list's creation order and a running import (issue #31, 0113_item_import_ranges.sql).
// An upload's import inserts its rows in one transaction. Until it commits they sit at the top of
// the creation order, invisible to everyone else, and a walk of that order from the top checked
// each of them in the table before skipping it: with 100,000 held rows a 0.2 ms newest-first page
// took 17–250 ms, and a frequent term's walk more. The import's rows now take a key range reserved
// (and committed) before its transaction, which deletes the reservation with its rows' insert, so a
// snapshot lists the range exactly while the rows in it are invisible, and walks go around it.

/** The creation time and ids an import's rows take (in its transaction). */
export interface ImportRange {
  /** As PostgreSQL's text, to the microsecond (a Date keeps milliseconds: rows would fall outside). */
  createdAt: string;
  firstId: string;
}

/**
 * Reserves the range a coming import of `uploadId` writes its rows in, committed before the import's
 * transaction begins (`db` outside it). A retried import takes a new range. Reservations of the
 * organisation's imports that rolled back and were not retried (their upload no longer importing)
 * cover only dead rows; they go here.
 */
export async function reserveImportRange(
  db: Queryable,
  upload: { uploadId: string; organisationId: string },
): Promise<void> {
  await db.query(
    `DELETE FROM monitoring_item_import_ranges r USING uploads u
      WHERE r.organisation_id = $1 AND u.id = r.upload_id AND u.status <> 'importing'`,
    [upload.organisationId],
  );
  await db.query(
    `INSERT INTO monitoring_item_import_ranges (upload_id, organisation_id, created_at, first_id, last_id)
     SELECT $1, $2, clock_timestamp(), f, pw_import_range_last_id(f) FROM pw_import_range_first_id() f
     ON CONFLICT (upload_id) DO UPDATE
       SET created_at = excluded.created_at, first_id = excluded.first_id, last_id = excluded.last_id`,
    [upload.uploadId, upload.organisationId],
  );
}

/**
 * In the import's transaction, before its rows are written: the reserved range, its reservation
 * deleted in the same transaction (so it disappears exactly when the rows appear). Without a
 * reservation (none was made) a fresh range, which no walk goes around.
 */
export async function takeImportRange(tx: Queryable, uploadId: string): Promise<ImportRange> {
  const taken = await tx.query<{ created_at: string; first_id: string }>(
    'DELETE FROM monitoring_item_import_ranges WHERE upload_id = $1 RETURNING created_at::text, first_id',
    [uploadId],
  );
  const row =
    taken.rows[0] ??
    (
      await tx.query<{ created_at: string; first_id: string }>(
        'SELECT clock_timestamp()::text AS created_at, pw_import_range_first_id() AS first_id',
      )
    ).rows[0]!;
  return { createdAt: row.created_at, firstId: row.first_id };
}

/**
 * The first `limit` rows of `where` in creation order (`created_at`, then `id`, in `direction`),
 * walked around the newest running import's range of the organisation `organisation` (a placeholder
 * such as `$1`): two index range scans, above and below the range, merged. Without a running import
 * the range lies past the end (`infinity`) and the lower scan is the whole order. `select` names the
 * columns and holds `created_at` and `id` as they are; the rows come in the walk's order.
 */
function createdOrderWalk(walk: {
  select: string;
  where: string;
  organisation: string;
  direction: 'ASC' | 'DESC';
  limit: string;
}): string {
  const { select, where, organisation, direction, limit } = walk;
  const range = `(SELECT created_at, first_id, last_id FROM monitoring_item_import_ranges
                   WHERE organisation_id = ${organisation} ORDER BY created_at DESC LIMIT 1)`;
  const bound = (column: 'created_at' | 'first_id' | 'last_id', none: string) =>
    `coalesce((SELECT ${column} FROM ${range} r), ${none})`;
  const at = bound('created_at', `'infinity'::timestamptz`);
  const first = bound('first_id', `'00000000-0000-0000-0000-000000000000'::uuid`);
  const last = bound('last_id', `'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid`);
  const order = `ORDER BY created_at ${direction}, id ${direction} LIMIT ${limit}`;
  const scan = (side: string) =>
    `(SELECT ${select} FROM monitoring_items WHERE ${where} AND ${side} ${order})`;
  return `SELECT * FROM (${scan(`ROW(created_at, id) > ROW(${at}, ${last})`)}
     UNION ALL ${scan(`ROW(created_at, id) < ROW(${at}, ${first})`)}) around_import ${order}`;
}

/**
 * The first `limit` rows of `where` in `column`'s order, ties by id, from the column's sort index, as
 * `FROM` text (rows `w` with `id`, the column and `extra`; the caller orders them again; `$1` is the
 * organisation, as in every statement of the items list). `where` holds no bound of the order's
 * own: with two lower bounds on (created_at, id), one of them the range's, PostgreSQL 15 starts the
 * scan at one and tests the other on every row to the end of the index. The creation
 * order (`created_at`) goes around a running import's range (createdOrderWalk); the other orders'
 * indexes hold an import's rows spread among the rest, a few per page.
 */
export function sortIndexWalk(walk: {
  where: string;
  column: string;
  direction: 'ASC' | 'DESC';
  limit: string;
  extra?: string;
}): string {
  const { where, column, direction, limit, extra } = walk;
  const select = `id, ${column}${extra ? `, ${extra}` : ''}`;
  return column === 'created_at'
    ? `(${createdOrderWalk({ select, where, organisation: '$1', direction, limit })}) w`
    : `(SELECT ${select} FROM monitoring_items WHERE ${where}
        ORDER BY ${column} ${direction}, id ${direction} LIMIT ${limit}) w`;
}
