/**
 * Items a run leaves for the next day: a remote source's daily limit allows fewer requests than the
 * run's items need (0064_run_source_cutoffs.sql). SQL only.
 */
import type { ItemKind, SourceType } from '@pledgewatch/contract';
import { itemLastCheckedSql } from '../../../db/item-last-check.ts';
import type { Queryable } from '../../../db/pool.ts';

/**
 * An item's priority for a source, as a row value: the time of the source's last answer for it
 * ('-infinity': never answered, asked first), then identifier and document type. Reads the cache
 * row joined as `c` and the item as `i` (document type '' for VINs).
 */
const PRIORITY = `(coalesce(c.fetched_at, '-infinity'), i.identifier, i.document_type)`;

/**
 * Fixes how far the run may go with a source: its items that need a request (no answer younger than
 * the TTL in the shared cache) in priority order, cut after `requestsLeft`. Writes nothing when
 * every such item fits.
 */
export async function planSourceCutoff(
  db: Queryable,
  input: {
    runId: string;
    organisationId: string;
    sourceType: SourceType;
    kinds: readonly ItemKind[];
    documentTypes: readonly string[] | null;
    itemScope: string[] | null;
    requestsLeft: number;
  },
): Promise<void> {
  await db.query(
    `WITH candidates AS (
       SELECT i.identifier, i.document_type, coalesce(c.fetched_at, '-infinity') AS answered_at
         FROM (SELECT DISTINCT identifier, coalesce(document_type, '') AS document_type
                 FROM monitoring_items
                WHERE organisation_id = $2 AND status = 'active' AND kind = ANY($4)
                  AND (kind = 'vin' OR $5::text[] IS NULL OR document_type = ANY($5))
                  AND ($6::text[] IS NULL OR identifier = ANY($6))) i
         LEFT JOIN source_cache c
           ON c.source_type = $3 AND c.document_type = i.document_type AND c.identifier = i.identifier
        WHERE c.expires_at IS NULL OR c.expires_at <= now()
     ), ranked AS (
       SELECT *, row_number() OVER (ORDER BY answered_at, identifier, document_type) AS n FROM candidates
     )
     INSERT INTO check_run_source_cutoffs (run_id, source_type, answered_at, identifier, document_type)
     -- Nothing left today: a key below every item's.
     SELECT $1::uuid, $3::text, '-infinity'::timestamptz, '', '' WHERE $7::int = 0 AND EXISTS (SELECT FROM candidates)
     UNION ALL
     SELECT $1::uuid, $3::text, answered_at, identifier, document_type FROM ranked
      WHERE $7::int > 0 AND n = $7::int AND EXISTS (SELECT FROM ranked WHERE n > $7::int)
     ON CONFLICT (run_id, source_type) DO NOTHING`,
    [
      input.runId,
      input.organisationId,
      input.sourceType,
      input.kinds,
      input.documentTypes,
      input.itemScope,
      input.requestsLeft,
    ],
  );
}

/** The batch's items (ids) that come after the run's cutoff for the source: not to be asked today. */
export async function listItemsPastCutoff(
  db: Queryable,
  input: {
    runId: string;
    sourceType: SourceType;
    items: { id: string; identifier: string; documentType: string }[];
  },
): Promise<Set<string>> {
  if (input.items.length === 0) {
    return new Set();
  }
  const { rows } = await db.query<{ id: string }>(
    `SELECT i.id
       FROM unnest($3::uuid[], $4::text[], $5::text[]) AS i(id, identifier, document_type)
       JOIN check_run_source_cutoffs k ON k.run_id = $1 AND k.source_type = $2
       LEFT JOIN source_cache c
         ON c.source_type = $2 AND c.document_type = i.document_type AND c.identifier = i.identifier
      WHERE (c.expires_at IS NULL OR c.expires_at <= now())
        AND ${PRIORITY} > (k.answered_at, k.identifier, k.document_type)`,
    [
      input.runId,
      input.sourceType,
      input.items.map((item) => item.id),
      input.items.map((item) => item.identifier),
      input.items.map((item) => item.documentType),
    ],
  );
  return new Set(rows.map((row) => row.id));
}

/** The last check of each item as it is now (before a batch stamps its range). */
export async function readLastChecks(db: Queryable, itemIds: string[]): Promise<Map<string, Date | null>> {
  if (itemIds.length === 0) {
    return new Map();
  }
  const { rows } = await db.query<{ item_id: string; checked_at: Date | null }>(
    `SELECT x.item_id, ${itemLastCheckedSql('x.item_id')} AS checked_at FROM unnest($1::uuid[]) AS x(item_id)`,
    [itemIds],
  );
  return new Map(rows.map((row) => [row.item_id, row.checked_at]));
}

/**
 * Gives items a batch did not ask about their own stamp again, as it was before the batch stamped
 * their range (0030: an unranged item's last check is its own; never checked stays never checked,
 * so its first answer is still a first check).
 */
export async function keepItemsDue(
  db: Queryable,
  input: { organisationId: string; kind: ItemKind; lastChecks: Map<string, Date | null> },
): Promise<void> {
  if (input.lastChecks.size === 0) {
    return;
  }
  await db.query(
    `UPDATE monitoring_item_checks k SET unranged_since = coalesce(k.unranged_since, now()), last_checked_at = x.checked_at
       FROM unnest($3::uuid[], $4::timestamptz[]) AS x(item_id, checked_at)
      WHERE k.item_id = x.item_id AND k.organisation_id = $1 AND k.kind = $2`,
    [input.organisationId, input.kind, [...input.lastChecks.keys()], [...input.lastChecks.values()]],
  );
}
