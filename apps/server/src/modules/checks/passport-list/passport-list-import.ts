import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { type Queryable, withTransaction } from '../../../db/pool.ts';
import type { Bzip2Decoder } from './decompress.ts';
import { PassportListParseThread } from './parse-thread.ts';
import {
  activateListImport,
  dropPassportListTables,
  failImport,
  indexListTable,
  listStalePassportTables,
  prepareListTable,
  setImportProgress,
} from './passport-list.queries.ts';
import { PassportListError } from './passport-list-format.ts';

const PROGRESS_EVERY_MS = 1000;

export interface PassportListImportResult {
  accepted: number;
  distinct: number;
  rejected: number;
}

/**
 * Loads the list file of an `importing` import as its version and makes it active (issue #30):
 * decompressed, parsed and grouped as one stream in a thread of its own (PassportListParseThread:
 * the passports in bounded memory, spill files beside the list's file), the main thread idle; then
 * the version's table is filled by one binary COPY in block order and keyed, while the active version
 * keeps answering, and switched in one transaction. The old version's table is left to `dropLater`,
 * called in the switch's transaction (a job queued for a grace period later, so a check that read
 * the old version just before the switch still finds it, and the import's job ends at the switch);
 * without it the table is dropped at once. A refused file fails the import with
 * its Russian reason and changes nothing else; any other error is thrown for the job to retry, from
 * the start.
 */
export async function importPassportList(options: {
  db: pg.Pool;
  importId: string;
  filePath: string;
  fileName?: string;
  maxTextBytes: number;
  /** Arranges the superseded version's table to be dropped later, inside the switch's transaction. */
  dropLater?: (tx: Queryable, table: string) => Promise<void>;
  /** A bzip2 decoder of its own (tests of each path); by default the fastest installed. */
  decoder?: Bzip2Decoder | 'javascript';
  /** The OS priority (nice) of the decompression and the parse (JOBS_DB_NICE); 0: the process's own. */
  nice?: number;
  /** Called after each phase (tests and the fault suite stop the import there). */
  onPhase?: (phase: string) => Promise<void> | void;
}): Promise<PassportListImportResult | { failure: string }> {
  const { db, importId, filePath } = options;
  await dropStaleStorage(db);
  await removeSpills(filePath);
  // The parse runs in a thread of its own at the job's priority (`nice`), the API keeps the cores.
  const parser = await PassportListParseThread.open(options.nice ?? 0, filePath);
  let lastProgress = 0;
  const progress = async (phase: 'loading' | 'indexing' | 'switching', force = false) => {
    const now = Date.now();
    if (!force && now - lastProgress < PROGRESS_EVERY_MS) {
      return;
    }
    lastProgress = now;
    await setImportProgress(db, importId, {
      phase,
      bytesRead: parser.bytesRead,
      rowsRead: parser.counts.rows,
    });
  };
  let client: pg.PoolClient | undefined;
  let loaded = false;
  try {
    await progress('loading', true);
    // The main thread only writes the progress the thread tells, one update at a time.
    let written = Promise.resolve();
    await parser
      .load(
        {
          path: filePath,
          fileName: options.fileName,
          maxBytes: options.maxTextBytes,
          decoder: options.decoder,
          nice: options.nice ?? 0,
        },
        () => {
          written = written.then(() => progress('loading'));
          written.catch(() => {}); // awaited when the load ends
        },
      )
      .finally(() => written);
    await options.onPhase?.('loaded');
    if (parser.counts.accepted === 0) {
      throw new PassportListError(
        parser.counts.rows === 0
          ? 'В файле только заголовок: нет ни одной строки с серией и номером'
          : `Ни одной строки с серией и номером: отклонено строк — ${parser.counts.rejected}`,
      );
    }
    await progress('indexing', true);
    client = await db.connect();
    await copyRows(client, await prepareListTable(client, importId), parser);
    await removeSpills(filePath);
    await indexListTable(client, importId);
    await options.onPhase?.('indexed');
    await progress('switching', true);
    const previous = await withTransaction(db, async (tx) => {
      const superseded = await activateListImport(tx, {
        id: importId,
        recordsTotal: parser.distinct,
        rowsRejected: parser.counts.rejected,
        errors: parser.counts.errors,
      });
      if (superseded && options.dropLater) {
        await options.dropLater(tx, superseded);
      }
      return superseded;
    });
    loaded = true;
    await options.onPhase?.('switched');
    await rm(filePath, { force: true });
    if (previous && !options.dropLater) {
      await dropPassportListTables(client, [previous]);
    }
    return { accepted: parser.counts.accepted, distinct: parser.distinct, rejected: parser.counts.rejected };
  } catch (error) {
    if (!loaded) {
      await dropStaleStorage(client ?? db).catch(() => {});
    }
    if (error instanceof PassportListError) {
      await failImport(db, importId, error.message);
      await dropStaleStorage(client ?? db).catch(() => {});
      await rm(filePath, { force: true });
      return { failure: error.message };
    }
    throw error;
  } finally {
    client?.release();
    await parser.close();
    await removeSpills(filePath).catch(() => {});
  }
}

/** The parse thread's rows through one COPY into the version's table. */
async function copyRows(client: pg.PoolClient, copySql: string, parser: PassportListParseThread) {
  const copy = client.query(copyFrom(copySql));
  const copyDone = new Promise<void>((resolve, reject) => {
    copy.on('finish', resolve);
    copy.on('error', reject);
  });
  try {
    for (let piece = await parser.nextRows(); piece; piece = await parser.nextRows()) {
      if (piece.length > 0 && !copy.write(piece)) {
        await new Promise<void>((resolve, reject) => {
          copy.once('drain', resolve);
          copy.once('error', reject);
        });
      }
    }
  } catch (error) {
    copy.destroy(error as Error);
    await copyDone.catch(() => {});
    throw error;
  }
  copy.end();
  await copyDone;
}

/** The spill files of an import of this file (ListKeyStore: `<file>.keys-<n>`), a killed attempt's too. */
async function removeSpills(filePath: string): Promise<void> {
  const prefix = `${path.basename(filePath)}.keys-`;
  const names = await readdir(path.dirname(filePath)).catch(() => [] as string[]);
  await Promise.all(
    names
      .filter((name) => name.startsWith(prefix))
      .map((name) => rm(path.join(path.dirname(filePath), name), { force: true })),
  );
}

/** Drops every list table no version needs (a killed import's, a superseded version's). */
export async function dropStaleStorage(db: pg.Pool | pg.PoolClient): Promise<void> {
  await dropPassportListTables(db, await listStalePassportTables(db));
}
