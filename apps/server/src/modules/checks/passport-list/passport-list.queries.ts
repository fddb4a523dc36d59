import type { Queryable } from '../../../db/pool.ts';

/**
 * One table per version of the list (migration 0073): `block int PRIMARY KEY, numbers int2[]`, a
 * passport's 10 digits as k, its row k / 10000, k % 10000 in the sorted array. About 100 passports
 * share a row at the list's density, so a row costs its header once for all of them (docs/datasets.md).
 */
export const passportListTable = (importId: string) => `passport_list_${importId.replaceAll('-', '')}`;
/** The load table of imports before ListKeyStore (a killed one's may still be there). */
const loadTable = (importId: string) => `passport_list_load_${importId.replaceAll('-', '')}`;
const TABLE_NAME = /^passport_list_(load_)?[0-9a-f]{32}$/;

const quoted = (table: string) => {
  if (!TABLE_NAME.test(table)) {
    throw new Error(`not a passport list table: ${table}`);
  }
  return `"${table}"`;
};

/** The block and the remainder of a 10-digit key, as SQL over a text expression known to be digits. */
export const BLOCK_OF = (key: string) => `(${key}::bigint / 10000)::int`;
export const REST_OF = (key: string) => `(${key}::bigint % 10000)::int2`;

/**
 * Whether the remainder `rest` (SQL, int2) is in a block's `numbers` (SQL, int2[]): a binary search
 * (`width_bucket` over the sorted numbers), about 7 comparisons a key where `= ANY` made ~100 for a
 * key not listed, as nearly every key is: a run's match of 1M passports 1.7 → 1.3 s, the bare
 * join 1.1 → 0.8 s (docs/performance.md). Needs the numbers sorted: ListKeyStore writes them so, and
 * createListTableFrom orders them.
 */
export const numberListed = (rest: string, numbers: string) =>
  `${numbers}[width_bucket(${rest}, ${numbers})] = ${rest}`;

/**
 * The version's table, empty, and the COPY that fills it with rows in block order (binary, from
 * ListKeyStore: the passports grouped, deduplicated and sorted before they reach the database).
 * A restarted import starts clean: whatever a killed attempt of this import left is dropped.
 */
export async function prepareListTable(db: Queryable, importId: string): Promise<string> {
  const table = quoted(passportListTable(importId));
  await dropPassportListTables(db, [loadTable(importId), passportListTable(importId)]);
  await db.query(`CREATE TABLE ${table} (block int NOT NULL, numbers int2[] NOT NULL)`);
  return `COPY ${table} (block, numbers) FROM STDIN (FORMAT binary)`;
}

/** The loaded version's table keyed (the rows came in block order) and its statistics taken. */
export async function indexListTable(db: Queryable, importId: string): Promise<void> {
  const table = quoted(passportListTable(importId));
  await db.query(`ALTER TABLE ${table} ADD PRIMARY KEY (block)`);
  // Statistics before the first check: without them the planner takes a batch's join for a hash of
  // the whole list (a sequential scan per batch, growing with the list) instead of index probes.
  await db.query(`ANALYZE ${table}`);
}

/** A small version's table straight from its passports, in the caller's transaction (demo data). */
export async function createListTableFrom(db: Queryable, importId: string, keys: readonly string[]) {
  const table = quoted(passportListTable(importId));
  await db.query(
    `CREATE TABLE ${table} AS
     SELECT ${BLOCK_OF('k')} AS block, array_agg(DISTINCT ${REST_OF('k')} ORDER BY ${REST_OF('k')}) AS numbers
       FROM unnest($1::text[]) AS k WHERE k ~ '^[0-9]{10}$' GROUP BY 1`,
    [keys],
  );
  await db.query(`ALTER TABLE ${table} ADD PRIMARY KEY (block)`);
  await db.query(`ANALYZE ${table}`);
}

export async function dropPassportListTables(db: Queryable, tables: readonly string[]): Promise<void> {
  for (const table of tables) {
    await db.query(`DROP TABLE IF EXISTS ${quoted(table)}`);
  }
}

/**
 * The tables no version needs: those of superseded and failed imports, and load tables of imports
 * no longer running. Never the active version's, nor an importing one's.
 */
export async function listStalePassportTables(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ table_name: string }>(
    `SELECT c.relname AS table_name
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()
      WHERE c.relkind = 'r' AND c.relname ~ '^passport_list_(load_)?[0-9a-f]{32}$'
        AND NOT EXISTS (
          SELECT 1 FROM source_imports si
           WHERE si.source_type = 'passport' AND si.status IN ('active', 'importing')
             AND replace(si.id::text, '-', '') = substring(c.relname from '[0-9a-f]{32}$'))`,
  );
  return rows.map((row) => row.table_name);
}

/**
 * The passports of the given keys (10 digits each) that the version lists: a one-time check, a
 * batch's check, a diff. One primary-key probe per key whatever the planner knows of the table
 * (the lateral subquery cannot become a hash of the whole list).
 */
export async function listedAmong(
  db: Queryable,
  table: string,
  keys: readonly string[],
): Promise<Set<string>> {
  const { rows } = await db.query<{ key: string }>(
    `SELECT x.key FROM unnest($1::text[]) AS x(key)
      CROSS JOIN LATERAL (SELECT 1 FROM ${quoted(table)} l
                           WHERE l.block = ${BLOCK_OF('x.key')} AND ${numberListed(REST_OF('x.key'), 'l.numbers')}) hit`,
    [keys],
  );
  return new Set(rows.map((row) => row.key));
}

/**
 * The blocks a batch's identifiers (text from `$from` to `$to`) can fall in: a 10-digit key's
 * block is its first six digits, and text order is numeric order among them. A bound that does not
 * start with six digits bounds nothing on its side.
 */
const blockFrom = (from: string) =>
  `CASE WHEN ${from} ~ '^[0-9]{6}' THEN substr(${from}, 1, 6)::int ELSE 0 END`;
const blockTo = (to: string) =>
  `CASE WHEN ${to} ~ '^[0-9]{6}' THEN substr(${to}, 1, 6)::int ELSE ${MAX_BLOCK} END`;
const MAX_BLOCK = 999_999;

/**
 * The SQL of a batch's match: the items (`b`, BATCH_ITEMS_WITH_KEY) listed in the version's table, the list
 * read only within the batch's identifier range (`from`, `to`: SQL of its bounds), so a run reads
 * each part of the list once at most and never the whole list per batch.
 */
export const listedBatchSql = (table: string, range: { from: string; to: string }) =>
  `JOIN ${quoted(table)} l ON l.block = (b.key / 10000)::int AND ${numberListed('(b.key % 10000)::int2', 'l.numbers')}
     AND l.block BETWEEN ${blockFrom(range.from)} AND ${blockTo(range.to)}`;

/**
 * A batch's items (`batch_items`) with their key (`key`): a passport's identifier is 10 digits
 * (the identifier rules, and the database's check since migration 0112), so it is cast as it is;
 * the test before the cast took a quarter of the batch's match. Any other document type
 * (a scope that did not narrow the batch to passports) has no key and joins nothing.
 */
export const BATCH_ITEMS_WITH_KEY = `(SELECT *, CASE WHEN document_type = 'passport_rf' THEN identifier::bigint END AS key
                                  FROM batch_items OFFSET 0) b`;

export interface ImportProgress {
  phase: 'queued' | 'downloading' | 'loading' | 'indexing' | 'switching';
  bytesRead?: number;
  bytesTotal?: number | null;
  rowsRead?: number;
}

export async function setImportProgress(db: Queryable, importId: string, progress: ImportProgress) {
  await db.query(
    `UPDATE source_imports SET phase = $2, bytes_read = coalesce($3, bytes_read),
            bytes_total = coalesce($4, bytes_total), rows_read = coalesce($5, rows_read)
      WHERE id = $1 AND status = 'importing'`,
    [
      importId,
      progress.phase,
      progress.bytesRead ?? null,
      progress.bytesTotal ?? null,
      progress.rowsRead ?? null,
    ],
  );
}

export async function getImportJob(
  db: Queryable,
  importId: string,
): Promise<
  | {
      id: string;
      source_type: string;
      status: string;
      file_path: string | null;
      file_name: string;
      created_by: string | null;
    }
  | undefined
> {
  const { rows } = await db.query(
    'SELECT id, source_type, status, file_path, file_name, created_by FROM source_imports WHERE id = $1',
    [importId],
  );
  return rows[0];
}

/** A refused or broken import: failed with its reason, its file forgotten. */
export async function failImport(db: Queryable, importId: string, failure: string): Promise<void> {
  await db.query(
    `UPDATE source_imports SET status = 'failed', phase = NULL, failure = $2, file_path = NULL
      WHERE id = $1 AND status = 'importing'`,
    [importId, failure],
  );
}

/**
 * The import becomes the active version, the previous active one superseded, in one transaction
 * (the caller's): a check reads one or the other, never neither. Returns the superseded version's table.
 */
export async function activateListImport(
  tx: Queryable,
  input: { id: string; recordsTotal: number; rowsRejected: number; errors: unknown[] },
): Promise<string | null> {
  await tx.query(`SELECT pg_advisory_xact_lock(724611100, hashtext('passport'))`);
  const previous = await tx.query<{ storage_table: string | null }>(
    `UPDATE source_imports SET status = 'superseded' WHERE source_type = 'passport' AND status = 'active'
     RETURNING storage_table`,
  );
  const { rowCount } = await tx.query(
    `UPDATE source_imports SET status = 'active', activated_at = now(), phase = NULL, file_path = NULL,
            records_total = $2, rows_rejected = $3, errors = $4, storage_table = $5
      WHERE id = $1 AND status = 'importing'`,
    [
      input.id,
      input.recordsTotal,
      input.rowsRejected,
      JSON.stringify(input.errors),
      passportListTable(input.id),
    ],
  );
  if (rowCount !== 1) {
    throw new Error(`import ${input.id} is no longer importing`);
  }
  return previous.rows[0]?.storage_table ?? null;
}
