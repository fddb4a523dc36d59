// SQL that matches a batch's items against a source: the batch's items, unchanged sources, the dataset diff.
import { createHash } from 'node:crypto';
import type { Finding, ItemKind, SourceType } from '@pledgewatch/contract';
import { itemsRevisionSql } from '../../../db/item-revision.ts';
import type { Queryable } from '../../../db/pool.ts';
import type { BatchFindingsSql } from '../sources/source-adapter.ts';
import { raisesOnFirstCheck } from './findings-diff.ts';

export interface BatchScope {
  organisationId: string;
  /** The batch's item kind and identifier range (inclusive). */
  kind: ItemKind;
  identifierFrom: string;
  identifierTo: string;
  kinds: readonly ItemKind[];
  /** Document types the source answers for; null → any. */
  documentTypes: readonly string[] | null;
}

/** Whether a source answers for any item of the batch's kind (else the batch has nothing for it). */
export const scopeHasItems = (scope: BatchScope) => scope.kinds.includes(scope.kind);

/**
 * The batch's items in identifier order: a range of the identity index. Fed to a join with a
 * source's records, the probes walk that index in order too (neighbouring pages, mostly cached).
 */
const BATCH_ITEMS_WHERE = `i.organisation_id = $1 AND i.kind = $2 AND i.identifier BETWEEN $3 AND $4 AND i.status = 'active'
       AND i.kind = ANY($5) AND (i.kind = 'vin' OR $6::text[] IS NULL OR i.document_type = ANY($6))`;
/** The batch's items as every statement of a batch reads them (exported for the passports benchmark). */
export const BATCH_ITEMS_CTE = `batch_items AS MATERIALIZED (
    SELECT i.id, i.identifier, coalesce(i.document_type, '') AS document_type
      FROM monitoring_items i
     WHERE ${BATCH_ITEMS_WHERE}
     ORDER BY i.identifier
  )`;
/** The parameters $1–$6 of BATCH_ITEMS_CTE. */
export const scopeParams = (scope: BatchScope) => [
  scope.organisationId,
  scope.kind,
  scope.identifierFrom,
  scope.identifierTo,
  scope.kinds,
  scope.documentTypes,
];

/** Whether the item was never checked: unranged without an own stamp (0030), or no check row. */
const isFirstCheck = (itemId: string) =>
  `coalesce((SELECT k.unranged_since IS NOT NULL AND k.last_checked_at IS NULL FROM monitoring_item_checks k
              WHERE k.item_id = ${itemId}), true)`;

export interface ItemChange {
  item_id: string;
  /** Set by remote sources (their snapshots are written from it). */
  identifier?: string;
  before: Finding[] | null;
  after: Finding[] | null;
  first_check: boolean;
}

/** The revision of organisation $1's items (0036): equal revisions, the same items. */
const ITEMS_REVISION = itemsRevisionSql('$1');

/**
 * The batch's items as one value: the count and the sum of a 64-bit hash of every item's id,
 * identifier and document type. Equal values, equal items: no item added, removed, paused, resumed
 * or renamed in the range (a replaced item collides only if its hash equals the one it replaced,
 * 1 in 2^64). The sum needs no order, so no sort of the batch: it costs half of an md5 over the
 * items in identifier order, once per source and batch.
 */
const itemsHash = (item: string, documentType: string) =>
  `count(*) || ':' || coalesce(sum(hashtextextended(${item}.id::text || ' ' || ${item}.identifier || ' ' || ${documentType}, 0)::numeric), 0)`;

/**
 * The sources (of one scope) whose last match over exactly this range had the same items, the
 * same input version and the same statement (matchVersion): matching them again would find the
 * snapshots they hold and raise nothing (check_source_fingerprints, migration 0041). Their item and
 * finding counts as then.
 */
export async function findUnchangedSources(
  db: Queryable,
  scope: BatchScope,
  sources: { type: SourceType; findings: BatchFindingsSql }[],
): Promise<Map<SourceType, { items: number; findings: number }>> {
  const versions = sources.flatMap(({ type, findings }) => {
    const version = matchVersion(findings, type);
    return version ? [{ type, version }] : [];
  });
  if (versions.length === 0) {
    return new Map();
  }
  const { rows } = await db.query<{ source_type: SourceType; items: number; findings: number }>(
    // The items hash only when the organisation's items have changed since the match (an initplan:
    // evaluated at its first use, so never while every candidate's revision is today's). A hash
    // found equal moves the fingerprint's revision to today's (read in this statement, with the
    // items hashed): the next run needs no hash either.
    `WITH revision AS MATERIALIZED (SELECT ${ITEMS_REVISION} AS marks),
     unchanged AS MATERIALIZED (
       SELECT f.source_type, f.items, f.findings FROM check_source_fingerprints f, revision r
        WHERE f.organisation_id = $1 AND f.kind = $2 AND f.identifier_from = $3 AND f.identifier_to = $4
          AND (f.source_type, f.input_version) IN (SELECT * FROM unnest($7::text[], $8::text[]))
          AND (f.items_revision = r.marks
               OR f.items_hash = (SELECT ${itemsHash('i', "coalesce(i.document_type, '')")} FROM monitoring_items i
                                   WHERE ${BATCH_ITEMS_WHERE}))
     ),
     refreshed AS (
       UPDATE check_source_fingerprints f SET items_revision = r.marks FROM unchanged u, revision r
        WHERE f.organisation_id = $1 AND f.source_type = u.source_type AND f.kind = $2
          AND f.identifier_from = $3 AND f.identifier_to = $4 AND f.items_revision IS DISTINCT FROM r.marks
     )
     SELECT source_type, items, findings FROM unchanged`,
    [...scopeParams(scope), versions.map((source) => source.type), versions.map((source) => source.version)],
  );
  return new Map(rows.map((row) => [row.source_type, { items: row.items, findings: row.findings }]));
}

/**
 * The statement of diffDatasetBatch for a source's findings SELECT. Its text is part of what a
 * fingerprint compares (matchVersion): a release that changes how findings are built or diffed
 * matches every range again.
 */
const diffStatement = (findings: BatchFindingsSql, sourceType: SourceType) =>
  `WITH ${BATCH_ITEMS_CTE},
     found AS MATERIALIZED (${findings.sql(10)}),
     cur AS MATERIALIZED (
       SELECT item_id, md5(string_agg(key || ':' || payload::text, '|' ORDER BY key)) AS hash
         FROM found GROUP BY item_id
     ),
     snap AS (
       SELECT s.item_id, s.hash FROM finding_snapshots s
        WHERE s.organisation_id = $1 AND s.source_type = $7 AND s.identifier BETWEEN $3 AND $4
     ),
     -- Items whose hash differs. A snapshot without current findings counts only for an item of the
     -- batch (a paused item keeps its findings): the one lookup, and only for such rows.
     changed AS MATERIALIZED (
       SELECT coalesce(c.item_id, s.item_id) AS item_id, c.hash, s.item_id IS NOT NULL AS had
         FROM cur c FULL JOIN snap s ON s.item_id = c.item_id
        WHERE c.hash IS DISTINCT FROM s.hash
          AND (c.item_id IS NOT NULL OR EXISTS (
                SELECT 1 FROM monitoring_items i
                 WHERE i.id = s.item_id AND i.status = 'active' AND i.kind = $2 AND i.kind = ANY($5)
                   AND (i.kind = 'vin' OR $6::text[] IS NULL OR i.document_type = ANY($6))))
     ),
     -- The changed items' findings after (a lookup in an object of their ids: never a join whose
     -- sides the planner cannot estimate, as a nested loop over two CTEs is quadratic on a first run),
     -- joined to them by a full join, which can only be hashed or merged.
     after AS MATERIALIZED (
       SELECT f.item_id, jsonb_agg(jsonb_build_object('key', f.key, 'payload', f.payload) ORDER BY f.key) AS findings
         FROM found f
        WHERE (SELECT jsonb_object_agg(item_id::text, true) FROM changed WHERE hash IS NOT NULL) ? f.item_id::text
        GROUP BY f.item_id
     ),
     changes AS MATERIALIZED (
       SELECT ch.item_id, ch.hash, ch.had, a.findings FROM changed ch FULL JOIN after a ON a.item_id = ch.item_id
     ),
     -- Findings before as an object keyed by item id, for the same reason.
     before AS MATERIALIZED (
       SELECT jsonb_object_agg(s.item_id::text, s.findings) AS map FROM finding_snapshots s
        WHERE s.source_type = $7 AND s.item_id = ANY (ARRAY(SELECT item_id FROM changed WHERE had))
     ),
     upserted AS (
       INSERT INTO finding_snapshots (item_id, source_type, organisation_id, identifier, findings, hash, run_id)
       SELECT ch.item_id, $7, $1, (SELECT i.identifier FROM monitoring_items i WHERE i.id = ch.item_id),
              ch.findings, ch.hash, $8
         FROM changes ch WHERE ch.hash IS NOT NULL
       ON CONFLICT (item_id, source_type) DO UPDATE
         SET identifier = EXCLUDED.identifier, findings = EXCLUDED.findings, hash = EXCLUDED.hash,
             run_id = EXCLUDED.run_id, updated_at = now()
     ),
     deleted AS (
       DELETE FROM finding_snapshots s
        WHERE s.source_type = $7 AND s.item_id = ANY (ARRAY(SELECT item_id FROM changed WHERE hash IS NULL))
     ),
     -- What this match was over (findUnchangedSources): the range's own row, and none overlapping it.
     unfingerprinted AS (
       DELETE FROM check_source_fingerprints f
        WHERE f.organisation_id = $1 AND f.source_type = $7 AND f.kind = $2::text
          AND f.identifier_from <= $4 AND f.identifier_to >= $3
          AND ((f.identifier_from, f.identifier_to) <> ($3, $4) OR $9::text IS NULL)
     ),
     fingerprinted AS (
       INSERT INTO check_source_fingerprints (organisation_id, source_type, kind, identifier_from, identifier_to,
                                              input_version, items_hash, items_revision, items, findings)
       SELECT $1, $7, $2::text, $3, $4, $9::text, ${itemsHash('b', 'b.document_type')}, ${ITEMS_REVISION},
              count(*), (SELECT count(*) FROM cur)
         FROM batch_items b HAVING $9::text IS NOT NULL
       ON CONFLICT (organisation_id, source_type, kind, identifier_from, identifier_to) DO UPDATE
         SET input_version = EXCLUDED.input_version, items_hash = EXCLUDED.items_hash,
             items_revision = EXCLUDED.items_revision, items = EXCLUDED.items, findings = EXCLUDED.findings,
             matched_at = now()
     )
     SELECT ch.item_id, (SELECT map FROM before) -> ch.item_id::text AS before,
            ch.findings AS after,
            ${raisesOnFirstCheck(sourceType) ? isFirstCheck('ch.item_id') : 'false'} AS first_check,
            0 AS items, 0 AS findings
       FROM changes ch
       -- A source whose first checks raise nothing (the registration history): its items' first
       -- findings are written as snapshots above and need not leave the database; the rest are not
       -- first checks.
      ${raisesOnFirstCheck(sourceType) ? '' : `WHERE NOT ${isFirstCheck('ch.item_id')}`}
     UNION ALL
     SELECT NULL, NULL, NULL, false, (SELECT count(*) FROM batch_items)::int, (SELECT count(*) FROM cur)::int`;

/** A match's inputs as a fingerprint stores them: the source's input version and the matching statement. */
function matchVersion(findings: BatchFindingsSql, sourceType: SourceType): string | null {
  return (
    findings.inputVersion &&
    `${findings.inputVersion} statement=${createHash('sha1').update(diffStatement(findings, sourceType)).digest('hex')}`
  );
}

/**
 * The set-based heart of a run, one statement per batch and source: matches every item of the batch
 * against a dataset source, compares each item's findings hash with its snapshot's (a range of
 * finding_snapshots_batch_idx), writes the snapshots of the items that changed and returns only
 * those, with their findings before and after. An unchanged batch returns no item and writes nothing.
 * Runs inside the batch's transaction, so the snapshots commit with the events or not at all.
 */
export async function diffDatasetBatch(
  db: Queryable,
  scope: BatchScope & { sourceType: SourceType; runId: string; findings: BatchFindingsSql },
): Promise<{ changes: ItemChange[]; items: number; findings: number }> {
  // A merge join with a source's records would read them from their first identifier up to the
  // batch's last (the planner cannot carry the batch's range over to a join without one): half of a
  // million-row dataset per batch on average. Index probes or a hash join are what this wants.
  await db.query('SET LOCAL enable_mergejoin = off');
  const { rows } = await db.query<ItemChange & { items: number; findings: number }>(
    diffStatement(scope.findings, scope.sourceType),
    [
      ...scopeParams(scope),
      scope.sourceType,
      scope.runId,
      matchVersion(scope.findings, scope.sourceType),
      ...scope.findings.params,
    ],
  );
  await db.query('RESET enable_mergejoin');
  // The UNION's last branch holds the batch's item and finding counts, told apart by its null item id.
  const summary = rows.find((row) => row.item_id === null);
  return {
    changes: rows.filter((row) => row.item_id !== null),
    items: summary?.items ?? 0,
    findings: summary?.findings ?? 0,
  };
}

export interface BatchItemRow {
  id: string;
  kind: ItemKind;
  document_type: string | null;
  identifier: string;
  first_check: boolean;
}

export async function listBatchItems(db: Queryable, scope: BatchScope): Promise<BatchItemRow[]> {
  const { rows } = await db.query<BatchItemRow>(
    `WITH ${BATCH_ITEMS_CTE}
     SELECT b.id, $2::text AS kind, nullif(b.document_type, '') AS document_type, b.identifier,
            ${isFirstCheck('b.id')} AS first_check
       FROM batch_items b ORDER BY b.identifier, b.document_type`,
    scopeParams(scope),
  );
  return rows;
}
