import type { Finding, SourceType } from '@pledgewatch/contract';
import type { Queryable } from '../../../db/pool.ts';

export interface SourceImportRow {
  id: string;
  source_type: SourceType;
  version: number;
  file_name: string;
  status: 'importing' | 'active' | 'superseded' | 'failed';
  records_total: number;
  rows_rejected: number;
  errors: { row: number; message: string }[];
  created_by_name: string | null;
  created_at: Date;
  activated_at: Date | null;
  phase: 'queued' | 'downloading' | 'loading' | 'indexing' | 'switching' | null;
  bytes_read: string;
  bytes_total: string | null;
  rows_read: string;
  failure: string | null;
}

export async function getActiveImport(
  db: Queryable,
  type: SourceType,
): Promise<{ id: string; version: number; demo: boolean } | undefined> {
  const { rows } = await db.query<{ id: string; version: number; demo: boolean }>(
    `SELECT id, version, demo FROM source_imports WHERE source_type = $1 AND status = 'active'`,
    [type],
  );
  return rows[0];
}

/** The active import of every source type, in one query (a one-time check asks five sources). */
export async function listActiveImports(
  db: Queryable,
): Promise<Map<SourceType, { id: string; version: number; demo: boolean }>> {
  const { rows } = await db.query<{ source_type: SourceType; id: string; version: number; demo: boolean }>(
    `SELECT source_type, id, version, demo FROM source_imports WHERE status = 'active'`,
  );
  return new Map(rows.map((row) => [row.source_type, { id: row.id, version: row.version, demo: row.demo }]));
}

/** One subject's records in the given imports, by import, each import's in finding-key order. */
export async function listItemRecords(
  db: Queryable,
  importIds: string[],
  item: { identifier: string; documentType: string | null },
): Promise<Map<string, Finding[]>> {
  const { rows } = await db.query<{
    import_id: string;
    finding_key: string;
    payload: Record<string, unknown>;
  }>(
    `SELECT import_id, finding_key, payload FROM source_records
      WHERE import_id = ANY($1::uuid[]) AND identifier = $2 AND document_type = $3
      ORDER BY import_id, finding_key`,
    [importIds, item.identifier, item.documentType ?? ''],
  );
  const byImport = new Map<string, Finding[]>();
  for (const row of rows) {
    const findings = byImport.get(row.import_id) ?? [];
    findings.push({ key: row.finding_key, payload: row.payload });
    byImport.set(row.import_id, findings);
  }
  return byImport;
}

/** Takes the next version number under a per-type lock, so two imports never share one. */
export async function insertSourceImport(
  db: Queryable,
  input: { type: SourceType; fileName: string; createdBy: string | null; id?: string },
): Promise<{ id: string; version: number }> {
  await db.query('SELECT pg_advisory_xact_lock(724611100, hashtext($1))', [input.type]);
  const { rows } = await db.query<{ id: string; version: number }>(
    `INSERT INTO source_imports (id, source_type, version, file_name, created_by)
     SELECT coalesce($4::uuid, gen_random_uuid()), $1, coalesce(max(version), 0) + 1, $2, $3
       FROM source_imports WHERE source_type = $1
     RETURNING id, version`,
    [input.type, input.fileName, input.createdBy, input.id ?? null],
  );
  return rows[0]!;
}

export interface DatasetRecord {
  documentType: string;
  identifier: string;
  key: string;
  payload: Record<string, unknown>;
}

/**
 * Names the source type whose records the transaction's next statements write, so that only its
 * input version is raised (migration 0041); outside a transaction it lasts no statement, and
 * every type's version is raised instead.
 */
const nameRecordsType = (tx: Queryable, type: SourceType) =>
  tx.query(`SELECT set_config('pledgewatch.source_records_type', $1, true)`, [type]);

export async function insertSourceRecords(
  db: Queryable,
  importId: string,
  type: SourceType,
  records: DatasetRecord[],
): Promise<void> {
  if (records.length === 0) {
    return;
  }
  await nameRecordsType(db, type);
  await db.query(
    `INSERT INTO source_records (import_id, document_type, identifier, finding_key, payload)
     SELECT $1, x.document_type, x.identifier, x.finding_key, x.payload
       FROM unnest($2::text[], $3::text[], $4::text[], $5::jsonb[]) AS x(document_type, identifier, finding_key, payload)`,
    [
      importId,
      records.map((r) => r.documentType),
      records.map((r) => r.identifier),
      records.map((r) => r.key),
      records.map((r) => JSON.stringify(r.payload)),
    ],
  );
}

/**
 * Writes a chunk of a version's records (at most one per document, identifier and key), replacing
 * the ones an earlier chunk of the same file wrote for the same keys: the file's last row wins.
 */
export async function replaceSourceRecords(
  tx: Queryable,
  importId: string,
  type: SourceType,
  records: DatasetRecord[],
): Promise<void> {
  await nameRecordsType(tx, type);
  await tx.query(
    `DELETE FROM source_records r
      USING unnest($2::text[], $3::text[], $4::text[]) AS x(document_type, identifier, finding_key)
      WHERE r.import_id = $1 AND r.identifier = x.identifier AND r.document_type = x.document_type
        AND r.finding_key = x.finding_key`,
    [
      importId,
      records.map((r) => r.documentType),
      records.map((r) => r.identifier),
      records.map((r) => r.key),
    ],
  );
  await insertSourceRecords(tx, importId, type, records);
}

/** Every record of one version (a retried or refused import's). */
export async function deleteImportRecords(tx: Queryable, importId: string, type: SourceType): Promise<void> {
  await nameRecordsType(tx, type);
  await tx.query('DELETE FROM source_records WHERE import_id = $1', [importId]);
}

/** Makes the import the active version of its type and the previous one superseded, in one statement. */
export async function activateSourceImport(
  db: Queryable,
  input: { id: string; type: SourceType; recordsTotal: number; rowsRejected: number; errors: unknown[] },
): Promise<void> {
  await db.query(
    `UPDATE source_imports SET status = 'superseded' WHERE source_type = $1 AND status = 'active'`,
    [input.type],
  );
  await db.query(
    `UPDATE source_imports SET status = 'active', activated_at = now(), records_total = $2, rows_rejected = $3,
            errors = $4 WHERE id = $1`,
    [input.id, input.recordsTotal, input.rowsRejected, JSON.stringify(input.errors)],
  );
}

const IMPORT_COLUMNS = `si.id, si.source_type, si.version, si.file_name, si.status, si.records_total, si.rows_rejected,
  si.errors, u.full_name AS created_by_name, si.created_at, si.activated_at, si.phase, si.bytes_read::text,
  si.bytes_total::text, si.rows_read::text, si.failure`;

export async function getSourceImport(db: Queryable, id: string): Promise<SourceImportRow | undefined> {
  const { rows } = await db.query<SourceImportRow>(
    `SELECT ${IMPORT_COLUMNS} FROM source_imports si LEFT JOIN users u ON u.id = si.created_by WHERE si.id = $1`,
    [id],
  );
  return rows[0];
}

export async function findSourceImports(
  db: Queryable,
  filter: { type: SourceType; limit: number; offset: number },
): Promise<{ items: SourceImportRow[]; total: number }> {
  const [items, total] = await Promise.all([
    db.query<SourceImportRow>(
      `SELECT ${IMPORT_COLUMNS} FROM source_imports si LEFT JOIN users u ON u.id = si.created_by
        WHERE si.source_type = $1 ORDER BY si.version DESC LIMIT $2 OFFSET $3`,
      [filter.type, filter.limit, filter.offset],
    ),
    db.query<{ count: number }>('SELECT count(*) AS count FROM source_imports WHERE source_type = $1', [
      filter.type,
    ]),
  ]);
  return { items: items.rows, total: total.rows[0]!.count };
}

/** Records of versions that are no longer active: safe to drop once a newer version is live. */
export async function deleteInactiveRecords(tx: Queryable, type: SourceType): Promise<number> {
  await nameRecordsType(tx, type);
  const { rowCount } = await tx.query(
    `DELETE FROM source_records r USING source_imports si
      WHERE si.id = r.import_id AND si.source_type = $1 AND si.status IN ('superseded', 'failed')`,
    [type],
  );
  return rowCount ?? 0;
}

/**
 * The versions of what dataset matches read besides the items (migration 0041), by name:
 * `records:<type>`, `pledge_registry`.
 */
export async function readInputVersions(db: Queryable): Promise<Map<string, string>> {
  const { rows } = await db.query<{ name: string; version: string }>(
    'SELECT name, version::text AS version FROM check_input_versions',
  );
  return new Map(rows.map((row) => [row.name, row.version]));
}

export interface SourceStatsRow {
  source_type: SourceType;
  active_version: number | null;
  last_refresh_at: Date | null;
  record_count: number | null;
}

export async function listDatasetStats(db: Queryable): Promise<SourceStatsRow[]> {
  const { rows } = await db.query<SourceStatsRow>(
    `SELECT source_type, version AS active_version, activated_at AS last_refresh_at, records_total AS record_count
       FROM source_imports WHERE status = 'active'`,
  );
  return rows;
}

/** Each type's newest import still running, with its progress. */
export async function listRunningImports(db: Queryable): Promise<SourceImportRow[]> {
  const { rows } = await db.query<SourceImportRow>(
    `SELECT DISTINCT ON (si.source_type) ${IMPORT_COLUMNS}
       FROM source_imports si LEFT JOIN users u ON u.id = si.created_by
      WHERE si.status = 'importing' AND si.phase IS NOT NULL
      ORDER BY si.source_type, si.version DESC`,
  );
  return rows;
}

export interface AnswerStatsRow {
  source_type: SourceType;
  p50: number | null;
  p95: number | null;
  batch_p50: number | null;
  batch_p95: number | null;
  batch_items_p50: number | null;
  consecutive_failures: number;
  last_failure_at: Date | null;
  last_error: string | null;
  last_ok_at: Date | null;
}

/**
 * Per source, over its latest 500 answers of each kind: p50/p95 of single-item answers (one-time
 * checks) and of batches (regular runs, with their median size); failures in a row over both kinds.
 */
export async function listAnswerStats(db: Queryable): Promise<AnswerStatsRow[]> {
  const { rows } = await db.query<AnswerStatsRow>(
    `WITH recent AS (
       SELECT a.*,
              row_number() OVER (PARTITION BY source_type, mode ORDER BY id DESC) AS n_mode,
              row_number() OVER (PARTITION BY source_type ORDER BY id DESC) AS n
         FROM source_answers a
     )
     SELECT source_type,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY duration_ms) FILTER (WHERE mode = 'item' AND ok) AS p50,
            percentile_cont(0.95) WITHIN GROUP (ORDER BY duration_ms) FILTER (WHERE mode = 'item' AND ok) AS p95,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY duration_ms) FILTER (WHERE mode = 'batch' AND ok) AS batch_p50,
            percentile_cont(0.95) WITHIN GROUP (ORDER BY duration_ms) FILTER (WHERE mode = 'batch' AND ok)
              AS batch_p95,
            round(percentile_cont(0.5) WITHIN GROUP (ORDER BY items) FILTER (WHERE mode = 'batch' AND ok))::int
              AS batch_items_p50,
            coalesce(min(n) FILTER (WHERE ok), count(*) + 1)::int - 1 AS consecutive_failures,
            max(created_at) FILTER (WHERE NOT ok) AS last_failure_at,
            (array_agg(error ORDER BY id DESC) FILTER (WHERE NOT ok))[1] AS last_error,
            max(created_at) FILTER (WHERE ok) AS last_ok_at
       FROM recent WHERE n_mode <= 500 GROUP BY source_type`,
  );
  return rows;
}

export async function recordSourceAnswers(
  db: Queryable,
  answers: {
    type: SourceType;
    mode: 'item' | 'batch';
    items: number;
    ok: boolean;
    durationMs: number;
    error?: string | null;
  }[],
): Promise<void> {
  if (answers.length === 0) {
    return;
  }
  await db.query(
    `INSERT INTO source_answers (source_type, mode, items, ok, duration_ms, error)
     SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::bool[], $5::int[], $6::text[])`,
    [
      answers.map((a) => a.type),
      answers.map((a) => a.mode),
      answers.map((a) => a.items),
      answers.map((a) => a.ok),
      answers.map((a) => Math.round(a.durationMs)),
      answers.map((a) => a.error ?? null),
    ],
  );
}

// ─── Remote-source cache ───────────────────────────────────────────────────────────────────

export async function getCachedAnswers(
  db: Queryable,
  type: SourceType,
  keys: { documentType: string; identifier: string }[],
): Promise<Map<string, Finding[]>> {
  const { rows } = await db.query<{ document_type: string; identifier: string; findings: Finding[] }>(
    `SELECT c.document_type, c.identifier, c.findings
       FROM source_cache c
       JOIN unnest($2::text[], $3::text[]) AS k(document_type, identifier)
         ON k.document_type = c.document_type AND k.identifier = c.identifier
      WHERE c.source_type = $1 AND c.expires_at > now()`,
    [type, keys.map((k) => k.documentType), keys.map((k) => k.identifier)],
  );
  return new Map(rows.map((row) => [`${row.document_type}|${row.identifier}`, row.findings]));
}

export async function putCachedAnswers(
  db: Queryable,
  type: SourceType,
  ttlSeconds: number,
  answers: { documentType: string; identifier: string; findings: Finding[] }[],
): Promise<void> {
  if (answers.length === 0 || ttlSeconds <= 0) {
    return;
  }
  await db.query(
    `INSERT INTO source_cache (source_type, document_type, identifier, findings, expires_at)
     SELECT $1, x.document_type, x.identifier, x.findings, now() + make_interval(secs => $2)
       FROM unnest($3::text[], $4::text[], $5::jsonb[]) AS x(document_type, identifier, findings)
     ON CONFLICT (source_type, document_type, identifier)
     DO UPDATE SET findings = EXCLUDED.findings, fetched_at = now(), expires_at = EXCLUDED.expires_at`,
    [
      type,
      ttlSeconds,
      answers.map((a) => a.documentType),
      answers.map((a) => a.identifier),
      answers.map((a) => JSON.stringify(a.findings)),
    ],
  );
}

export async function deleteCachedAnswers(db: Queryable, types: SourceType[]): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM source_cache WHERE source_type = ANY($1)', [types]);
  return rowCount ?? 0;
}

/**
 * Of the organisation's active items a source answers for: how many have an answer younger than
 * the source's TTL in the shared cache (covered), and how many in all. The rest wait for a request.
 */
export async function countCoverage(
  db: Queryable,
  input: {
    organisationId: string;
    type: SourceType;
    kinds: readonly string[];
    documentTypes: readonly string[] | null;
  },
): Promise<{ covered: number; total: number }> {
  const { rows } = await db.query<{ covered: number; total: number }>(
    `SELECT count(*) FILTER (WHERE c.expires_at > now())::int AS covered, count(*)::int AS total
       FROM monitoring_items i
       LEFT JOIN source_cache c
         ON c.source_type = $2 AND c.document_type = coalesce(i.document_type, '') AND c.identifier = i.identifier
      WHERE i.organisation_id = $1 AND i.status = 'active' AND i.kind = ANY($3)
        AND (i.kind = 'vin' OR $4::text[] IS NULL OR i.document_type = ANY($4))`,
    [input.organisationId, input.type, input.kinds, input.documentTypes],
  );
  return rows[0]!;
}
