import type { ItemKind, ItemOrigin, ItemStatus } from '@pledgewatch/contract';
import type { Queryable } from '../../db/pool.ts';
import type { ValidItemRow } from './item-rules.ts';

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

/** The item's last check lives in monitoring_item_checks (0002_portfolio.sql); one primary-key lookup per row. */
const LAST_CHECKED =
  '(SELECT c.last_checked_at FROM monitoring_item_checks c WHERE c.item_id = id) AS last_checked_at';

const ITEM_COLUMNS = `id, organisation_id, kind, document_type, identifier, label, contract_number, pledgor_name,
  status, origin, upload_id, created_at, updated_at, archived_at, ${LAST_CHECKED}`;

/** Must stay identical to the expression of monitoring_items_search_idx, or the index is not used. */
export const SEARCH_EXPRESSION = `lower(identifier || ' ' || coalesce(label, '') || ' ' || coalesce(contract_number, ''))`;

/**
 * Sort keys → expressions; the values are the only text ever put into ORDER BY. Each must match the
 * leading expression of its index (monitoring_items_*_idx, identity key for identifier).
 */
const SORT_COLUMNS = {
  createdAt: 'created_at',
  identifier: 'identifier',
  label: 'label',
  contractNumber: 'contract_number COLLATE "C"',
  // Sorted through monitoring_item_checks_sort_idx (see findItems).
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

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (char) => `\\${char}`);

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
  },
): Promise<{ items: ItemRow[]; total: number }> {
  const params: unknown[] = [filter.organisationId, filter.kind, filter.statuses];
  let where = 'organisation_id = $1 AND kind = $2 AND status = ANY($3::text[])';
  const search = filter.search?.trim().toLowerCase();
  if (search) {
    // Identifiers are stored without spaces and dashes: "45 06 123456" must find "4506123456".
    const compact = search.replace(/[\s\-–—№]+/g, '');
    params.push(`%${escapeLike(search)}%`);
    if (compact && compact !== search) {
      params.push(`%${escapeLike(compact)}%`);
      where += ` AND (${SEARCH_EXPRESSION} LIKE $4 OR ${SEARCH_EXPRESSION} LIKE $5)`;
    } else {
      where += ` AND ${SEARCH_EXPRESSION} LIKE $4`;
    }
  }
  const column = SORT_COLUMNS[filter.sort];
  const direction = filter.order === 'asc' ? 'ASC' : 'DESC';
  const limitAt = params.length + 1;
  const [items, total] = await Promise.all([
    // A search takes its matches from the trigram index and sorts them: walking a sort index and
    // filtering would read most of the portfolio when the matches cluster (one make's VINs sort
    // together and were imported together) — 0.7 s instead of a few ms at a million items.
    db.query<ItemRow>(
      search
        ? `WITH hits AS MATERIALIZED (SELECT ${ITEM_COLUMNS} FROM monitoring_items WHERE ${where})
           SELECT * FROM hits ORDER BY ${column} ${direction}, id ${direction} LIMIT $${limitAt} OFFSET $${limitAt + 1}`
        : filter.sort === 'lastCheckedAt'
          ? // Every item has its row in monitoring_item_checks: walk its sort index, filter the status on the way.
            `SELECT ${ITEM_COLUMNS} FROM monitoring_items WHERE id IN (
               SELECT c.item_id FROM monitoring_item_checks c JOIN monitoring_items m ON m.id = c.item_id
                WHERE c.organisation_id = $1 AND c.kind = $2 AND m.status = ANY($3::text[])
                ORDER BY c.last_checked_at ${direction}, c.item_id ${direction} LIMIT $${limitAt} OFFSET $${limitAt + 1})
             ORDER BY last_checked_at ${direction}, id ${direction}`
          : `SELECT ${ITEM_COLUMNS} FROM monitoring_items WHERE ${where}
              ORDER BY ${column} ${direction}, id ${direction} LIMIT $${limitAt} OFFSET $${limitAt + 1}`,
      [...params, filter.limit, filter.offset],
    ),
    // A search narrows the set: counted exactly through the trigram index. The whole list: the counts table.
    search
      ? db
          .query<{ count: number }>(`SELECT count(*) AS count FROM monitoring_items WHERE ${where}`, params)
          .then((result) => result.rows[0]!.count)
      : countItems(db, filter.organisationId, filter.kind, filter.statuses),
  ]);
  return { items: items.rows, total };
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
