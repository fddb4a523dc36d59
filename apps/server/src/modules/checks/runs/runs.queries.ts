// SQL of check runs and their batches: planning, progress, the end of a batch and the checked ranges it stamps.
import type { CheckRunTrigger, ItemKind, SourceType } from '@pledgewatch/contract';
import { itemsRevisionSql } from '../../../db/item-revision.ts';
import type { Queryable } from '../../../db/pool.ts';

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
