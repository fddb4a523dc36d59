import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import type { SourceType } from '@pledgewatch/contract';
import type pg from 'pg';
import { withTransaction } from '../../../db/pool.ts';
import { readHead } from '../../../lib/tabular/csv-stream.ts';
import { failImport, setImportProgress } from '../passport-list/passport-list.queries.ts';
import {
  type DatasetRow,
  parseDatasetRow,
  parseJsonRows,
  type RowError,
  readDatasetCsv,
} from './dataset-layouts.ts';
import {
  type DatasetRecord,
  deleteImportRecords,
  deleteInactiveRecords,
  replaceSourceRecords,
} from './sources.queries.ts';

const MAX_REPORTED_ERRORS = 100;
/** Records written per statement (and per transaction): the job's memory is one chunk of them. */
const CHUNK = 5000;
const PROGRESS_EVERY_MS = 1000;
/** A JSON file is parsed whole (one document): its cap; a larger dataset goes as CSV, read as a stream. */
export const DATASET_JSON_MAX_BYTES = 128 * 1024 * 1024;

/** A refusal of the whole file, with the Russian reason the version keeps in `failure`. */
export class DatasetFileError extends Error {
  readonly errors: RowError[];
  constructor(message: string, errors: RowError[] = []) {
    super(message);
    this.name = 'DatasetFileError';
    this.errors = errors;
  }
}

/** Whether the file is JSON: by its name, or a head that opens an array or an object. */
export const looksJson = (fileName: string, head: Uint8Array) =>
  /\.json$/i.test(fileName) ||
  /^\s*[[{]/.test(new TextDecoder().decode(head.subarray(0, 1024)).replace(/^\uFEFF/, ''));

/**
 * Loads the dataset file of an `importing` version of a source (every source but the MVD list) and
 * makes it active (issue #30): the CSV read as a stream, its good rows written in chunks under the
 * version's id while the active version keeps answering (checks read only the active version's
 * records), then switched in one transaction. A repeated (document, identifier, key) keeps its last
 * row, across chunks too. Progress (bytes of the file, rows) goes to the sources screen. A refused
 * file fails the version with its Russian reason; any other error is thrown for the job to retry,
 * from the start (what a killed attempt wrote is deleted first).
 */
export async function importDatasetVersion(options: {
  db: pg.Pool;
  importId: string;
  type: SourceType;
  filePath: string;
  fileName: string;
  /** Called after each phase (tests stop the import there, as a killed worker would). */
  onPhase?: (phase: string) => Promise<void> | void;
}): Promise<{ recordsTotal: number; rejected: number } | { failure: string }> {
  const { db, importId, type } = options;
  // A retried import starts clean: what a killed attempt wrote under this version goes first.
  await withTransaction(db, (tx) => deleteImportRecords(tx, importId, type));
  let bytesRead = 0;
  let rowsRead = 0;
  let lastProgress = 0;
  const progress = async (force = false) => {
    const now = Date.now();
    if (force || now - lastProgress >= PROGRESS_EVERY_MS) {
      lastProgress = now;
      await setImportProgress(db, importId, { phase: 'loading', bytesRead, rowsRead });
    }
  };
  const errors: RowError[] = [];
  let rejected = 0;
  try {
    await progress(true);
    const file = createReadStream(options.filePath, { highWaterMark: 256 * 1024 });
    file.on('data', (chunk) => {
      bytesRead += chunk.length;
    });
    const { head, chunks } = await readHead(file);
    let rows: AsyncIterable<DatasetRow> | Iterable<DatasetRow>;
    if (looksJson(options.fileName, head)) {
      if ((await stat(options.filePath)).size > DATASET_JSON_MAX_BYTES) {
        file.destroy();
        throw new DatasetFileError(
          `Файл JSON больше ${DATASET_JSON_MAX_BYTES / 1024 / 1024} МБ: загрузите набор как CSV, он читается потоком`,
        );
      }
      const parts: Uint8Array[] = [];
      for await (const chunk of chunks) {
        parts.push(chunk);
      }
      const list = parseJsonRows(Buffer.concat(parts).toString('utf8'));
      if (!list) {
        throw new DatasetFileError(
          'Не удалось прочитать файл: нужен CSV (UTF-8 или Windows-1251) или JSON — массив записей',
        );
      }
      rows = list.map((values, index) => ({ rowNumber: index + 2, values }));
    } else {
      rows = readDatasetCsv(chunks);
    }
    // A chunk keeps the last of its repeats; replaceSourceRecords drops earlier chunks' ones.
    let chunk = new Map<string, DatasetRecord>();
    const flush = async () => {
      if (chunk.size > 0) {
        const records = [...chunk.values()];
        chunk = new Map();
        await withTransaction(db, (tx) => replaceSourceRecords(tx, importId, type, records));
      }
    };
    for await (const row of rows) {
      rowsRead = row.rowNumber - 1;
      const result = parseDatasetRow(type, row.values, row.rowNumber, row.longColumns);
      if ('error' in result) {
        rejected++;
        if (errors.length < MAX_REPORTED_ERRORS) {
          errors.push(result.error);
        }
        continue;
      }
      const { record } = result;
      const key = `${record.documentType}|${record.identifier}|${record.key}`;
      chunk.delete(key);
      chunk.set(key, record);
      if (chunk.size >= CHUNK) {
        await flush();
        await progress();
      }
    }
    await flush();
    await progress(true);
    await options.onPhase?.('loaded');
    await setImportProgress(db, importId, { phase: 'switching' });
    const recordsTotal = await withTransaction(db, (tx) =>
      activateDatasetVersion(tx, { id: importId, type, rowsRejected: rejected, errors }),
    );
    if (recordsTotal === null) {
      throw new DatasetFileError('В файле нет ни одной подходящей записи', errors);
    }
    await rm(options.filePath, { force: true });
    // The old versions' records are no longer read by anything; their history rows stay.
    await withTransaction(db, (tx) => deleteInactiveRecords(tx, type));
    return { recordsTotal, rejected };
  } catch (error) {
    if (!(error instanceof DatasetFileError)) {
      throw error;
    }
    await failDatasetVersion(db, { importId, type, failure: error.message, errors, rejected });
    await rm(options.filePath, { force: true });
    return { failure: error.message };
  }
}

/**
 * The version becomes active, the previous one superseded, in the caller's transaction; null (and
 * nothing changed) when it holds no record. Returns its records.
 */
async function activateDatasetVersion(
  tx: pg.PoolClient,
  input: { id: string; type: SourceType; rowsRejected: number; errors: RowError[] },
): Promise<number | null> {
  await tx.query('SELECT pg_advisory_xact_lock(724611100, hashtext($1))', [input.type]);
  const { rows } = await tx.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM source_records WHERE import_id = $1',
    [input.id],
  );
  const recordsTotal = rows[0]!.count;
  if (recordsTotal === 0) {
    return null;
  }
  const importing = await tx.query(
    `SELECT 1 FROM source_imports WHERE id = $1 AND status = 'importing' FOR UPDATE`,
    [input.id],
  );
  if (importing.rows.length === 0) {
    throw new Error(`import ${input.id} is no longer importing`);
  }
  await tx.query(
    `UPDATE source_imports SET status = 'superseded' WHERE source_type = $1 AND status = 'active'`,
    [input.type],
  );
  await tx.query(
    `UPDATE source_imports SET status = 'active', activated_at = now(), phase = NULL, file_path = NULL,
            records_total = $2, rows_rejected = $3, errors = $4
      WHERE id = $1`,
    [input.id, recordsTotal, input.rowsRejected, JSON.stringify(input.errors)],
  );
  return recordsTotal;
}

/** A refused or abandoned version: failed with its reason and rejected rows, its records deleted. */
export async function failDatasetVersion(
  db: pg.Pool,
  input: { importId: string; type: SourceType; failure: string; errors?: RowError[]; rejected?: number },
): Promise<void> {
  await failImport(db, input.importId, input.failure);
  if (input.errors) {
    await db.query('UPDATE source_imports SET errors = $2, rows_rejected = $3 WHERE id = $1', [
      input.importId,
      JSON.stringify(input.errors),
      input.rejected ?? 0,
    ]);
  }
  await withTransaction(db, (tx) => deleteImportRecords(tx, input.importId, input.type));
}
