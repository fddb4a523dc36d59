// Over 500 lines by design: the SQL query catalogue of check runs (runs, batches, matching, snapshots), SQL only.
import { createHash } from 'node:crypto';
import type { CheckRunTrigger, Finding, ItemKind, SourceType } from '@pledgewatch/contract';
import { itemsRevisionSql } from '../../../db/item-revision.ts';
import type { Queryable } from '../../../db/pool.ts';
import type { BatchFindingsSql } from '../sources/source-adapter.ts';
import { type EventDraft, raisesOnFirstCheck } from './findings-diff.ts';

export type RunStatus = 'queued' | 'running' | 'completed' | 'completed_with_errors' | 'failed';

export interface CheckRunRow {
  id: string;
  organisation_id: string;
  trigger: CheckRunTrigger;
  status: RunStatus;
  /** Identifiers a targeted run checks; null: every active item. */
  item_scope: string[] | null;
  batch_size: number;
  items_total: number;
  items_done: number;
  batches_total: number;
  batches_done: number;
  events_created: number;
  error: string | null;
  created_by: string | null;
  created_by_name: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

/** Per-source state of one batch (check_run_batches.sources). */
export interface BatchSourceState {
  status: 'done' | 'failed';
  /** Not matched again: the range's items and the source's inputs were those of its last match. */
  unchanged?: boolean;
  /** A failure worth another attempt (remote timeouts, 5xx); a missing dataset is not. */
  retryable: boolean;
  attempts: number;
  items: number;
  findings: number;
  events: number;
  error: string | null;
  durationMs: number;
  /** Items the source did not ask about (its daily limit): they stay due (deferred-items.queries.ts). */
  deferred?: string[];
}

export interface BatchRow {
  run_id: string;
  batch_no: number;
  kind: ItemKind;
  identifier_from: string;
  identifier_to: string;
  items: number;
  status: 'queued' | 'done' | 'failed';
  sources: Partial<Record<SourceType, BatchSourceState>>;
}

const RUN_COLUMNS = `r.id, r.organisation_id, r.trigger, r.status, r.batch_size, r.items_total, r.items_done,
  r.batches_total, r.batches_done, r.events_created, r.error, r.created_by, u.full_name AS created_by_name,
  r.created_at, r.started_at, r.finished_at, r.item_scope`;

/** Returns null when the organisation already has an unfinished run. */
export async function insertCheckRun(
  db: Queryable,
  run: {
    organisationId: string;
    trigger: CheckRunTrigger;
    createdBy: string | null;
    batchSize: number;
    itemScope?: string[] | null;
  },
): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO check_runs (organisation_id, trigger, created_by, batch_size, item_scope) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (organisation_id) WHERE status IN ('queued', 'running') DO NOTHING RETURNING id`,
    [run.organisationId, run.trigger, run.createdBy, run.batchSize, run.itemScope ?? null],
  );
  return rows[0]?.id ?? null;
}

export async function getCheckRun(
  db: Queryable,
  id: string,
  options: { organisationId?: string; lock?: boolean } = {},
): Promise<CheckRunRow | undefined> {
  const { rows } = await db.query<CheckRunRow>(
    `SELECT ${RUN_COLUMNS} FROM check_runs r LEFT JOIN users u ON u.id = r.created_by
      WHERE r.id = $1 AND ($2::uuid IS NULL OR r.organisation_id = $2) ${options.lock ? 'FOR UPDATE OF r' : ''}`,
    [id, options.organisationId ?? null],
  );
  return rows[0];
}

export async function findCheckRuns(
  db: Queryable,
  filter: { organisationId: string; limit: number; offset: number },
): Promise<{ items: CheckRunRow[]; total: number }> {
  const [items, total] = await Promise.all([
    db.query<CheckRunRow>(
      `SELECT ${RUN_COLUMNS} FROM check_runs r LEFT JOIN users u ON u.id = r.created_by
        WHERE r.organisation_id = $1 ORDER BY r.created_at DESC, r.id DESC LIMIT $2 OFFSET $3`,
      [filter.organisationId, filter.limit, filter.offset],
    ),
    db.query<{ count: number }>('SELECT count(*) AS count FROM check_runs WHERE organisation_id = $1', [
      filter.organisationId,
    ]),
  ]);
  return { items: items.rows, total: total.rows[0]!.count };
}

/**
 * Cuts the organisation's active items into batches of consecutive identifiers of one kind (read in
 * the order of the identity index); fixed for the run's life. Items sharing an identifier (documents
 * of different types) share a batch, so the ranges never overlap. When the items are those the
 * last whole run was planned over, its batches are taken as they are (and their ranges then meet
 * the fingerprints of its matches: check_source_fingerprints).
 */
export async function planBatches(
  db: Queryable,
  run: { id: string; organisationId: string; batchSize: number; itemScope?: string[] | null },
): Promise<{ batches: number; items: number }> {
  if (run.itemScope) {
    return planScopedBatches(db, { ...run, itemScope: run.itemScope });
  }
  const { rows } = await db.query<{ batches: number; items: number }>(
    `WITH revision AS (SELECT ${itemsRevisionSql('$2')} AS marks),
     -- The organisation's last whole run, if its plan was made over the same items (0042): its
     -- batches are what ranking them again would give.
     previous AS (
       SELECT p.id FROM check_runs p, revision
        WHERE p.id = (SELECT q.id FROM check_runs q
                       WHERE q.organisation_id = $2 AND q.id <> $1 AND q.item_scope IS NULL AND q.batches_total > 0
                       ORDER BY q.created_at DESC LIMIT 1)
          AND p.batch_size = $3 AND p.items_revision = revision.marks
          AND p.batches_total = (SELECT count(*) FROM check_run_batches b WHERE b.run_id = p.id)
     ),
     numbered AS (
       SELECT kind, identifier, (dense_rank() OVER (PARTITION BY kind ORDER BY identifier) - 1) / $3 AS part
         FROM monitoring_items WHERE organisation_id = $2 AND status = 'active'
     ), parts AS (
       SELECT kind, identifier_from, identifier_to, items FROM check_run_batches
        WHERE run_id = (SELECT id FROM previous)
       UNION ALL
       SELECT kind, min(identifier), max(identifier), count(*)
         FROM numbered WHERE NOT EXISTS (SELECT FROM previous) GROUP BY kind, part
     ), inserted AS (
       INSERT INTO check_run_batches (run_id, batch_no, kind, identifier_from, identifier_to, items)
       SELECT $1, row_number() OVER (ORDER BY kind, identifier_from) - 1, kind, identifier_from, identifier_to, items
         FROM parts
       RETURNING items
     ), planned AS (
       UPDATE check_runs SET items_revision = (SELECT marks FROM revision), planned_from = (SELECT id FROM previous)
        WHERE id = $1
     )
     SELECT count(*)::int AS batches, coalesce(sum(items), 0)::int AS items FROM inserted`,
    [run.id, run.organisationId, run.batchSize],
  );
  return rows[0]!;
}

/**
 * Batches of a targeted run. A batch checks every active item in its identifier range, so a range
 * holds only identifiers of the scope that are neighbours among the organisation's items (islands:
 * the rank among all items minus the rank within the scope is constant along one), cut at the batch
 * size. Items outside the scope are never checked by it.
 */
async function planScopedBatches(
  db: Queryable,
  run: { id: string; organisationId: string; batchSize: number; itemScope: string[] },
): Promise<{ batches: number; items: number }> {
  const { rows } = await db.query<{ batches: number; items: number }>(
    `WITH ranked AS (
       SELECT DISTINCT kind, identifier,
              dense_rank() OVER (PARTITION BY kind ORDER BY identifier) AS g,
              identifier = ANY($4::text[]) AS scoped
         FROM monitoring_items WHERE organisation_id = $2 AND status = 'active'
     ), islands AS (
       SELECT kind, identifier, g - row_number() OVER (PARTITION BY kind ORDER BY identifier) AS island
         FROM ranked WHERE scoped
     ), numbered AS (
       SELECT kind, identifier, island,
              (row_number() OVER (PARTITION BY kind, island ORDER BY identifier) - 1) / $3 AS part
         FROM islands
     ), parts AS (
       SELECT kind, island, part, min(identifier) AS identifier_from, max(identifier) AS identifier_to,
              count(*) AS items
         FROM numbered GROUP BY kind, island, part
     ), inserted AS (
       INSERT INTO check_run_batches (run_id, batch_no, kind, identifier_from, identifier_to, items)
       SELECT $1, row_number() OVER (ORDER BY kind, island, part) - 1, kind, identifier_from, identifier_to, items
         FROM parts
       RETURNING items
     )
     SELECT count(*)::int AS batches, coalesce(sum(items), 0)::int AS items FROM inserted`,
    [run.id, run.organisationId, run.batchSize, run.itemScope],
  );
  return rows[0]!;
}

export async function updateRun(
  db: Queryable,
  id: string,
  fields: Partial<{
    status: RunStatus;
    items_total: number;
    batches_total: number;
    started_at: Date;
    finished_at: Date;
    error: string;
  }>,
): Promise<void> {
  const entries = Object.entries(fields).filter(([, value]) => value !== undefined);
  // Column names come from the typed keys above, never from input.
  const sets = entries.map(([column], index) => `${column} = $${index + 2}`);
  await db.query(`UPDATE check_runs SET ${sets.join(', ')} WHERE id = $1`, [
    id,
    ...entries.map(([, v]) => v),
  ]);
}

export async function listBatchNumbers(db: Queryable, runId: string): Promise<number[]> {
  const { rows } = await db.query<{ batch_no: number }>(
    'SELECT batch_no FROM check_run_batches WHERE run_id = $1 ORDER BY batch_no',
    [runId],
  );
  return rows.map((row) => row.batch_no);
}

export async function getBatch(
  db: Queryable,
  runId: string,
  batchNo: number,
  options: { lock?: boolean } = {},
): Promise<BatchRow | undefined> {
  const { rows } = await db.query<BatchRow>(
    `SELECT run_id, batch_no, kind, identifier_from, identifier_to, items, status, sources FROM check_run_batches
      WHERE run_id = $1 AND batch_no = $2 ${options.lock ? 'FOR UPDATE' : ''}`,
    [runId, batchNo],
  );
  return rows[0];
}

export async function listBatchSourceStates(
  db: Queryable,
  runId: string,
): Promise<Pick<BatchRow, 'batch_no' | 'items' | 'status' | 'sources'>[]> {
  const { rows } = await db.query<Pick<BatchRow, 'batch_no' | 'items' | 'status' | 'sources'>>(
    'SELECT batch_no, items, status, sources FROM check_run_batches WHERE run_id = $1',
    [runId],
  );
  return rows;
}

/** Sets the states of the batch's sources just applied (one statement for all of them). */
export async function setBatchSourceStates(
  db: Queryable,
  key: { runId: string; batchNo: number },
  states: Partial<Record<SourceType, BatchSourceState>>,
): Promise<void> {
  await db.query(
    'UPDATE check_run_batches SET sources = sources || $3::jsonb WHERE run_id = $1 AND batch_no = $2',
    [key.runId, key.batchNo, JSON.stringify(states)],
  );
}

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
const BATCH_ITEMS_CTE = `batch_items AS MATERIALIZED (
    SELECT i.id, i.identifier, coalesce(i.document_type, '') AS document_type
      FROM monitoring_items i
     WHERE ${BATCH_ITEMS_WHERE}
     ORDER BY i.identifier
  )`;
const scopeParams = (scope: BatchScope) => [
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

export async function getSnapshots(
  db: Queryable,
  sourceType: SourceType,
  itemIds: string[],
): Promise<Map<string, Finding[]>> {
  const { rows } = await db.query<{ item_id: string; findings: Finding[] }>(
    'SELECT item_id, findings FROM finding_snapshots WHERE source_type = $1 AND item_id = ANY($2::uuid[])',
    [sourceType, itemIds],
  );
  return new Map(rows.map((row) => [row.item_id, row.findings]));
}

const SNAPSHOT_HASH = `(SELECT md5(string_agg((e->>'key') || ':' || (e->'payload')::text, '|' ORDER BY e->>'key'))
                         FROM jsonb_array_elements(x.findings) e)`;

/**
 * Writes the new findings of changed items (remote sources; dataset sources write theirs in
 * diffDatasetBatch): rows for items with findings, none for items without.
 */
export async function writeSnapshots(
  db: Queryable,
  input: {
    organisationId: string;
    sourceType: SourceType;
    runId: string;
    items: { itemId: string; identifier: string | null; findings: Finding[] }[];
  },
): Promise<void> {
  if (input.items.length > 0) {
    // These snapshots are no longer what a dataset match of the type left (findUnchangedSources).
    await db.query('DELETE FROM check_source_fingerprints WHERE organisation_id = $1 AND source_type = $2', [
      input.organisationId,
      input.sourceType,
    ]);
  }
  const present = input.items.filter((item) => item.findings.length > 0);
  const gone = input.items.filter((item) => item.findings.length === 0).map((item) => item.itemId);
  if (present.length > 0) {
    await db.query(
      `INSERT INTO finding_snapshots (item_id, source_type, organisation_id, identifier, findings, hash, run_id)
       SELECT x.item_id, $2, $1, x.identifier, x.findings, ${SNAPSHOT_HASH}, $3
         FROM jsonb_to_recordset($4::jsonb) AS x(item_id uuid, identifier text, findings jsonb)
       ON CONFLICT (item_id, source_type) DO UPDATE
         SET identifier = EXCLUDED.identifier, findings = EXCLUDED.findings, hash = EXCLUDED.hash,
             run_id = EXCLUDED.run_id, updated_at = now()`,
      [
        input.organisationId,
        input.sourceType,
        input.runId,
        JSON.stringify(
          present.map((item) => ({
            item_id: item.itemId,
            identifier: item.identifier,
            findings: item.findings,
          })),
        ),
      ],
    );
  }
  if (gone.length > 0) {
    await db.query('DELETE FROM finding_snapshots WHERE source_type = $1 AND item_id = ANY($2::uuid[])', [
      input.sourceType,
      gone,
    ]);
  }
}

/** Items of the batch that have findings of the source (after its snapshots were written). */
export async function countSnapshots(
  db: Queryable,
  scope: BatchScope & { sourceType: SourceType },
): Promise<number> {
  const { rows } = await db.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM finding_snapshots s JOIN monitoring_items i ON i.id = s.item_id
      WHERE s.organisation_id = $1 AND s.source_type = $2 AND s.identifier BETWEEN $3 AND $4 AND i.kind = $5`,
    [scope.organisationId, scope.sourceType, scope.identifierFrom, scope.identifierTo, scope.kind],
  );
  return rows[0]!.count;
}

/**
 * Inserts the batch's events of every source in one statement; rows that a previous attempt of the
 * same batch already wrote are skipped. Returns the inserted ones.
 */
export async function insertEvents(
  db: Queryable,
  input: {
    organisationId: string;
    runId: string;
    events: (EventDraft & { itemId: string; sourceType: SourceType })[];
  },
): Promise<{ id: string; source_type: SourceType }[]> {
  if (input.events.length === 0) {
    return [];
  }
  const { rows } = await db.query<{ id: string; source_type: SourceType }>(
    `INSERT INTO monitoring_events (organisation_id, item_id, run_id, source_type, event_type, severity,
                                    finding_key, before, after, first_check, demo)
     SELECT $1, x.item_id, $2, x.source, x.type, x.severity, x.key, nullif(x.before, 'null'::jsonb),
            nullif(x.after, 'null'::jsonb), x.first_check, x.demo
       FROM jsonb_to_recordset($3::jsonb)
         AS x(item_id uuid, source text, type text, severity text, key text, before jsonb, after jsonb,
              first_check boolean, demo boolean)
     ON CONFLICT (run_id, item_id, source_type, event_type, finding_key) DO NOTHING
     RETURNING id, source_type`,
    [
      input.organisationId,
      input.runId,
      JSON.stringify(
        input.events.map((event) => ({
          item_id: event.itemId,
          source: event.sourceType,
          type: event.type,
          severity: event.severity,
          key: event.findingKey,
          before: event.before,
          after: event.after,
          first_check: event.firstCheck,
          demo: event.demo,
        })),
      ),
    ],
  );
  return rows;
}

export async function addRunEvents(db: Queryable, runId: string, count: number): Promise<void> {
  if (count > 0) {
    await db.query('UPDATE check_runs SET events_created = events_created + $2 WHERE id = $1', [
      runId,
      count,
    ]);
  }
}

/**
 * A batch whose job was quarantined (two of its runs ended their process): it ends with every source
 * not yet done marked failed with `error`, not retried, and counts toward the run, which then ends
 * «completed_with_errors» when it was the last. Its range is not stamped checked: the items stay due.
 */
export async function quarantineBatch(
  db: Queryable,
  input: { runId: string; batchNo: number; sourceTypes: readonly string[]; error: string },
): Promise<FinishedRun | null> {
  const failed: BatchSourceState = {
    status: 'failed',
    retryable: false,
    attempts: 0,
    items: 0,
    findings: 0,
    events: 0,
    error: input.error,
    durationMs: 0,
  };
  const { rowCount } = await db.query(
    `UPDATE check_run_batches b
        SET status = 'done', finished_at = now(),
            sources = (SELECT coalesce(jsonb_object_agg(t, CASE WHEN b.sources->t->>'status' = 'done'
                                                                 THEN b.sources->t ELSE $4::jsonb END), '{}'::jsonb)
                         FROM unnest($3::text[]) t)
      WHERE run_id = $1 AND batch_no = $2 AND status = 'queued'`,
    [input.runId, input.batchNo, input.sourceTypes, JSON.stringify(failed)],
  );
  if (!rowCount) {
    return null;
  }
  const { rows } = await db.query<FinishedRun>(
    `UPDATE check_runs r SET batches_done = batches_done + 1,
            status = CASE WHEN batches_done + 1 < batches_total THEN 'running' ELSE 'completed_with_errors' END,
            finished_at = CASE WHEN batches_done + 1 >= batches_total THEN now() END
      WHERE id = $1
      RETURNING trigger, status,
                extract(epoch FROM finished_at - coalesce(started_at, created_at))::float8 AS seconds`,
    [input.runId],
  );
  return rows[0] ?? null;
}

/** Marks the batch finished, its items checked and the run's progress; finishes the run with its last batch. */
export async function finishBatch(
  db: Queryable,
  input: {
    runId: string;
    batchNo: number;
    organisationId: string;
    kind: ItemKind;
    identifierFrom: string;
    identifierTo: string;
    items: number;
  },
): Promise<FinishedRun | null> {
  await db.query(
    `UPDATE check_run_batches SET status = 'done', finished_at = now() WHERE run_id = $1 AND batch_no = $2`,
    [input.runId, input.batchNo],
  );
  // The run's row first: its lock orders the ends of concurrent batches, so each range write below
  // sees the ranges the batches before it wrote (they may trim the same older range).
  const { rows } = await db.query<FinishedRun>(
    `UPDATE check_runs r SET items_done = items_done + $2, batches_done = batches_done + 1,
            status = CASE WHEN batches_done + 1 < batches_total THEN 'running'
                          WHEN EXISTS (SELECT 1 FROM check_run_batches b, jsonb_each(b.sources) s
                                        WHERE b.run_id = r.id AND s.value->>'status' = 'failed')
                          THEN 'completed_with_errors' ELSE 'completed' END,
            finished_at = CASE WHEN batches_done + 1 >= batches_total THEN now() END
      WHERE id = $1
      RETURNING trigger, status,
                extract(epoch FROM finished_at - coalesce(started_at, created_at))::float8 AS seconds`,
    [input.runId, input.items],
  );
  await stampCheckedRange(db, input);
  const run = rows[0];
  return run && run.status !== 'running' ? run : null;
}

/** A run its last batch finished: how it ended and how long it took (the run-duration metric). */
export interface FinishedRun {
  trigger: CheckRunTrigger;
  status: RunStatus;
  seconds: number;
}

/**
 * Records that the active items of a kind in [from, to] were checked now (0030_range_check_stamps.sql):
 * one range row, cut out of the older ranges it overlaps, and the range's unranged active items
 * (new or resumed since their last batch: none in a repeated run) turned ranged, whatever own
 * stamp they had: the batch's time replaces it, as a per-item stamp did.
 */
export async function stampCheckedRange(
  db: Queryable,
  input: { organisationId: string; kind: ItemKind; identifierFrom: string; identifierTo: string },
): Promise<void> {
  const params = [input.organisationId, input.kind, input.identifierFrom, input.identifierTo];
  await db.query(
    `WITH checked AS (SELECT pw_identifier_range($3, $4, '[]') AS identifiers),
     overlapped AS (
       DELETE FROM monitoring_check_ranges r USING checked c
        WHERE r.organisation_id = $1 AND r.kind = $2 AND r.identifiers && c.identifiers
       RETURNING r.identifiers, r.checked_at
     )
     INSERT INTO monitoring_check_ranges (organisation_id, kind, identifiers, checked_at)
     SELECT $1, $2, rest, o.checked_at
       FROM overlapped o, checked c, unnest(multirange(o.identifiers) - multirange(c.identifiers)) rest
     UNION ALL
     SELECT $1, $2, identifiers, now() FROM checked`,
    params,
  );
  // The item's status as its check row carries it (0039, kept by the status trigger in the status
  // change's own transaction): no probe of monitoring_items per item (a quarter of the update).
  await db.query(
    `UPDATE monitoring_item_checks SET last_checked_at = NULL, unranged_since = NULL
      WHERE organisation_id = $1 AND kind = $2 AND identifier BETWEEN $3 AND $4 AND unranged_since IS NOT NULL
        AND item_status = 'active'`,
    params,
  );
}

// ─── Schedules ─────────────────────────────────────────────────────────────────────────────

export interface ScheduleRow {
  enabled: boolean;
  run_at: string;
  last_triggered_at: Date | null;
  /** When the minute tick (claimDueSchedules) will take the schedule, if it is enabled. */
  next_run_at: Date;
}

// The one source of truth for the schedule: the tick claims by DUE_NOW, and the next run shown to
// people is derived from the same columns and the same Moscow clock, so the two cannot disagree.
const MOSCOW_NOW = `(now() AT TIME ZONE 'Europe/Moscow')`;
/** Fired today, or saved today with a time already past (upsertSchedule): nothing more today. */
const DONE_TODAY = `coalesce(last_triggered_on >= ${MOSCOW_NOW}::date, false)`;
const DUE_NOW = `run_at <= ${MOSCOW_NOW}::time AND NOT ${DONE_TODAY}`;
const NEXT_RUN_AT = `CASE WHEN ${DONE_TODAY} THEN ((${MOSCOW_NOW}::date + 1) + run_at) AT TIME ZONE 'Europe/Moscow'
                          WHEN ${DUE_NOW} THEN date_trunc('minute', now()) + interval '1 minute'
                          ELSE (${MOSCOW_NOW}::date + run_at) AT TIME ZONE 'Europe/Moscow' END`;

export async function getSchedule(db: Queryable, organisationId: string): Promise<ScheduleRow | undefined> {
  const { rows } = await db.query<ScheduleRow>(
    `SELECT enabled, to_char(run_at, 'HH24:MI') AS run_at, last_triggered_at, ${NEXT_RUN_AT} AS next_run_at
       FROM check_schedules WHERE organisation_id = $1`,
    [organisationId],
  );
  return rows[0];
}

/** Saves the schedule; a time already past today (Moscow) first fires tomorrow. */
export async function upsertSchedule(
  db: Queryable,
  input: { organisationId: string; enabled: boolean; time: string; userId: string },
): Promise<void> {
  await db.query(
    `INSERT INTO check_schedules (organisation_id, enabled, run_at, updated_by, last_triggered_on)
     VALUES ($1, $2, $3::time, $4,
             CASE WHEN $3::time <= (now() AT TIME ZONE 'Europe/Moscow')::time
                  THEN (now() AT TIME ZONE 'Europe/Moscow')::date END)
     ON CONFLICT (organisation_id) DO UPDATE
       SET enabled = EXCLUDED.enabled, run_at = EXCLUDED.run_at, updated_by = EXCLUDED.updated_by,
           updated_at = now(),
           last_triggered_on = greatest(check_schedules.last_triggered_on, EXCLUDED.last_triggered_on)`,
    [input.organisationId, input.enabled, input.time, input.userId],
  );
}

/** Claims the schedules due now (Moscow time) and not yet fired today; marks them fired. */
export async function claimDueSchedules(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ organisation_id: string }>(
    `UPDATE check_schedules s
        SET last_triggered_on = ${MOSCOW_NOW}::date, last_triggered_at = now()
      WHERE s.organisation_id IN (
              SELECT organisation_id FROM check_schedules
               WHERE enabled AND ${DUE_NOW}
               FOR UPDATE SKIP LOCKED)
      RETURNING s.organisation_id`,
  );
  return rows.map((row) => row.organisation_id);
}
