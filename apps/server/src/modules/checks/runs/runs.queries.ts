import type { Finding, ItemKind, SourceType } from '@pledgewatch/contract';
import type { Queryable } from '../../../db/pool.ts';
import type { BatchFindingsSql } from '../sources/source-adapter.ts';
import type { EventDraft } from './findings-diff.ts';

export type RunStatus = 'queued' | 'running' | 'completed' | 'completed_with_errors' | 'failed';

export interface CheckRunRow {
  id: string;
  organisation_id: string;
  trigger: 'manual' | 'scheduled';
  status: RunStatus;
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
  /** A failure worth another attempt (remote timeouts, 5xx); a missing dataset is not. */
  retryable: boolean;
  attempts: number;
  items: number;
  findings: number;
  events: number;
  error: string | null;
  durationMs: number;
}

export interface BatchRow {
  run_id: string;
  batch_no: number;
  id_from: string;
  id_to: string;
  items: number;
  status: 'queued' | 'done' | 'failed';
  sources: Partial<Record<SourceType, BatchSourceState>>;
}

const RUN_COLUMNS = `r.id, r.organisation_id, r.trigger, r.status, r.batch_size, r.items_total, r.items_done,
  r.batches_total, r.batches_done, r.events_created, r.error, r.created_by, u.full_name AS created_by_name,
  r.created_at, r.started_at, r.finished_at`;

/** Returns null when the organisation already has an unfinished run. */
export async function insertCheckRun(
  db: Queryable,
  run: {
    organisationId: string;
    trigger: 'manual' | 'scheduled';
    createdBy: string | null;
    batchSize: number;
  },
): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO check_runs (organisation_id, trigger, created_by, batch_size) VALUES ($1, $2, $3, $4)
     ON CONFLICT (organisation_id) WHERE status IN ('queued', 'running') DO NOTHING RETURNING id`,
    [run.organisationId, run.trigger, run.createdBy, run.batchSize],
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
 * Cuts the organisation's active items into batches of consecutive ids; fixed for the run's life.
 * (PostgreSQL has no min(uuid); the text form in C collation sorts the same way.)
 */
export async function planBatches(
  db: Queryable,
  run: { id: string; organisationId: string; batchSize: number },
): Promise<{ batches: number; items: number }> {
  const { rows } = await db.query<{ batches: number; items: number }>(
    `WITH numbered AS (
       SELECT id, (row_number() OVER (ORDER BY id) - 1) / $3 AS batch_no
         FROM monitoring_items WHERE organisation_id = $2 AND status = 'active'
     ), inserted AS (
       INSERT INTO check_run_batches (run_id, batch_no, id_from, id_to, items)
       SELECT $1, batch_no, min(id::text COLLATE "C")::uuid, max(id::text COLLATE "C")::uuid, count(*)
         FROM numbered GROUP BY batch_no
       RETURNING items
     )
     SELECT count(*)::int AS batches, coalesce(sum(items), 0)::int AS items FROM inserted`,
    [run.id, run.organisationId, run.batchSize],
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
    `SELECT run_id, batch_no, id_from, id_to, items, status, sources FROM check_run_batches
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

export async function setBatchSourceState(
  db: Queryable,
  key: { runId: string; batchNo: number; type: SourceType },
  state: BatchSourceState,
): Promise<void> {
  await db.query(
    `UPDATE check_run_batches SET sources = jsonb_set(sources, ARRAY[$3::text], $4::jsonb)
      WHERE run_id = $1 AND batch_no = $2`,
    [key.runId, key.batchNo, key.type, JSON.stringify(state)],
  );
}

export interface BatchScope {
  organisationId: string;
  idFrom: string;
  idTo: string;
  kinds: readonly ItemKind[];
  /** Document types the source answers for; null → any. */
  documentTypes: readonly string[] | null;
}

const BATCH_ITEMS_CTE = `batch_items AS MATERIALIZED (
    SELECT i.id, i.identifier, coalesce(i.document_type, '') AS document_type, i.last_checked_at
      FROM monitoring_items i
     WHERE i.organisation_id = $1 AND i.id BETWEEN $2 AND $3 AND i.status = 'active' AND i.kind = ANY($4)
       AND (i.kind = 'vin' OR $5::text[] IS NULL OR i.document_type = ANY($5))
  )`;
const scopeParams = (scope: BatchScope) => [
  scope.organisationId,
  scope.idFrom,
  scope.idTo,
  scope.kinds,
  scope.documentTypes,
];

export interface ItemChange {
  item_id: string;
  before: Finding[] | null;
  after: Finding[] | null;
  first_check: boolean;
}

/**
 * The set-based heart of a run: matches every item of the batch against a dataset source in one
 * query and returns only the items whose findings differ from their snapshot.
 */
export async function diffDatasetBatch(
  db: Queryable,
  scope: BatchScope & { sourceType: SourceType; findings: BatchFindingsSql },
): Promise<{ changes: ItemChange[]; items: number }> {
  const { rows } = await db.query<ItemChange & { items: number }>(
    `WITH ${BATCH_ITEMS_CTE},
     found AS (${scope.findings.sql(7)}),
     cur AS (
       SELECT item_id, jsonb_agg(jsonb_build_object('key', key, 'payload', payload) ORDER BY key) AS findings,
              md5(string_agg(key || ':' || payload::text, '|' ORDER BY key)) AS hash
         FROM found GROUP BY item_id
     ),
     snap AS (
       SELECT s.item_id, s.findings, s.hash
         FROM finding_snapshots s JOIN batch_items b ON b.id = s.item_id
        WHERE s.source_type = $6
     ),
     changed AS (
       SELECT coalesce(c.item_id, s.item_id) AS item_id, s.findings AS before, c.findings AS after
         FROM cur c FULL JOIN snap s ON s.item_id = c.item_id
        WHERE c.hash IS DISTINCT FROM s.hash
     )
     SELECT ch.item_id, ch.before, ch.after, b.last_checked_at IS NULL AS first_check, 0 AS items
       FROM changed ch JOIN batch_items b ON b.id = ch.item_id
     UNION ALL
     SELECT NULL, NULL, NULL, false, count(*)::int FROM batch_items`,
    [...scopeParams(scope), scope.sourceType, ...scope.findings.params],
  );
  // The UNION's last branch is the batch size, told apart by its null item id.
  const items = rows.find((row) => row.item_id === null)?.items ?? 0;
  return { changes: rows.filter((row) => row.item_id !== null), items };
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
     SELECT b.id, i.kind, i.document_type, b.identifier, b.last_checked_at IS NULL AS first_check
       FROM batch_items b JOIN monitoring_items i ON i.id = b.id ORDER BY b.id`,
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

/** Writes the new findings of changed items: rows for items with findings, none for items without. */
export async function writeSnapshots(
  db: Queryable,
  input: {
    organisationId: string;
    sourceType: SourceType;
    runId: string;
    items: { itemId: string; findings: Finding[] }[];
  },
): Promise<void> {
  const present = input.items.filter((item) => item.findings.length > 0);
  const gone = input.items.filter((item) => item.findings.length === 0).map((item) => item.itemId);
  if (present.length > 0) {
    await db.query(
      `INSERT INTO finding_snapshots (item_id, source_type, organisation_id, findings, hash, run_id)
       SELECT x.item_id, $2, $1, x.findings, ${SNAPSHOT_HASH}, $3
         FROM jsonb_to_recordset($4::jsonb) AS x(item_id uuid, findings jsonb)
       ON CONFLICT (item_id, source_type) DO UPDATE
         SET findings = EXCLUDED.findings, hash = EXCLUDED.hash, run_id = EXCLUDED.run_id, updated_at = now()`,
      [
        input.organisationId,
        input.sourceType,
        input.runId,
        JSON.stringify(present.map((item) => ({ item_id: item.itemId, findings: item.findings }))),
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

export async function countSnapshots(
  db: Queryable,
  scope: BatchScope & { sourceType: SourceType },
): Promise<number> {
  const { rows } = await db.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM finding_snapshots
      WHERE source_type = $2 AND item_id BETWEEN $3 AND $4 AND organisation_id = $1`,
    [scope.organisationId, scope.sourceType, scope.idFrom, scope.idTo],
  );
  return rows[0]!.count;
}

/** Inserts the events; rows that a previous attempt of the same batch already wrote are skipped. */
export async function insertEvents(
  db: Queryable,
  input: {
    organisationId: string;
    runId: string;
    sourceType: SourceType;
    events: (EventDraft & { itemId: string })[];
  },
): Promise<string[]> {
  if (input.events.length === 0) {
    return [];
  }
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO monitoring_events (organisation_id, item_id, run_id, source_type, event_type, severity,
                                    finding_key, before, after, first_check, demo)
     SELECT $1, x.item_id, $2, $3, x.type, x.severity, x.key, nullif(x.before, 'null'::jsonb),
            nullif(x.after, 'null'::jsonb), x.first_check, x.demo
       FROM jsonb_to_recordset($4::jsonb)
         AS x(item_id uuid, type text, severity text, key text, before jsonb, after jsonb, first_check boolean, demo boolean)
     ON CONFLICT (run_id, item_id, source_type, event_type, finding_key) DO NOTHING
     RETURNING id`,
    [
      input.organisationId,
      input.runId,
      input.sourceType,
      JSON.stringify(
        input.events.map((event) => ({
          item_id: event.itemId,
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
  return rows.map((row) => row.id);
}

export async function addRunEvents(db: Queryable, runId: string, count: number): Promise<void> {
  if (count > 0) {
    await db.query('UPDATE check_runs SET events_created = events_created + $2 WHERE id = $1', [
      runId,
      count,
    ]);
  }
}

/** Marks the batch finished, its items checked and the run's progress; finishes the run with its last batch. */
export async function finishBatch(
  db: Queryable,
  input: {
    runId: string;
    batchNo: number;
    organisationId: string;
    idFrom: string;
    idTo: string;
    items: number;
  },
): Promise<void> {
  await db.query(
    `UPDATE check_run_batches SET status = 'done', finished_at = now() WHERE run_id = $1 AND batch_no = $2`,
    [input.runId, input.batchNo],
  );
  await db.query(
    `UPDATE monitoring_items SET last_checked_at = now()
      WHERE organisation_id = $1 AND id BETWEEN $2 AND $3 AND status = 'active'`,
    [input.organisationId, input.idFrom, input.idTo],
  );
  await db.query(
    `UPDATE check_runs r SET items_done = items_done + $2, batches_done = batches_done + 1,
            status = CASE WHEN batches_done + 1 < batches_total THEN 'running'
                          WHEN EXISTS (SELECT 1 FROM check_run_batches b, jsonb_each(b.sources) s
                                        WHERE b.run_id = r.id AND s.value->>'status' = 'failed')
                          THEN 'completed_with_errors' ELSE 'completed' END,
            finished_at = CASE WHEN batches_done + 1 >= batches_total THEN now() END
      WHERE id = $1`,
    [input.runId, input.items],
  );
}

// ─── Schedules ─────────────────────────────────────────────────────────────────────────────

export interface ScheduleRow {
  enabled: boolean;
  run_at: string;
  last_triggered_at: Date | null;
}

export async function getSchedule(db: Queryable, organisationId: string): Promise<ScheduleRow | undefined> {
  const { rows } = await db.query<ScheduleRow>(
    `SELECT enabled, to_char(run_at, 'HH24:MI') AS run_at, last_triggered_at FROM check_schedules WHERE organisation_id = $1`,
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
        SET last_triggered_on = (now() AT TIME ZONE 'Europe/Moscow')::date, last_triggered_at = now()
      WHERE s.organisation_id IN (
              SELECT organisation_id FROM check_schedules
               WHERE enabled AND run_at <= (now() AT TIME ZONE 'Europe/Moscow')::time
                 AND (last_triggered_on IS NULL OR last_triggered_on < (now() AT TIME ZONE 'Europe/Moscow')::date)
               FOR UPDATE SKIP LOCKED)
      RETURNING s.organisation_id`,
  );
  return rows.map((row) => row.organisation_id);
}
