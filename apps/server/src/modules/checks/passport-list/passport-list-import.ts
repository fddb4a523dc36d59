import { rm } from 'node:fs/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { withTransaction } from '../../../db/pool.ts';
import { openListText } from './decompress.ts';
import { PassportListParseThread } from './parse-thread.ts';
import {
  activateListImport,
  buildListTable,
  dropPassportListTables,
  failImport,
  listStalePassportTables,
  prepareLoadTable,
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
 * decompressed, parsed and COPY'd as one stream (memory does not grow with the file), the version's
 * table built and indexed while the active version keeps answering, then switched in one transaction.
 * The old version's table is dropped `dropGraceMs` later (a check that read the old version just
 * before the switch still finds it). A refused file fails the import with its Russian reason and
 * changes nothing else; any other error is thrown for the job to retry, from the start.
 */
export async function importPassportList(options: {
  db: pg.Pool;
  importId: string;
  filePath: string;
  fileName?: string;
  maxTextBytes: number;
  dropGraceMs?: number;
  /** false: the pure-JavaScript bzip2 decoder even where bunzip2 is installed. */
  useBunzip2?: boolean;
  /** The OS priority (nice) of the decompression and the parse (JOBS_DB_NICE); 0: the process's own. */
  nice?: number;
  /** Called after each phase (tests and the fault suite stop the import there). */
  onPhase?: (phase: string) => Promise<void> | void;
}): Promise<PassportListImportResult | { failure: string }> {
  const { db, importId } = options;
  await dropStaleStorage(db);
  // The parse runs in a thread of its own at the job's priority (`nice`), the API keeps the cores.
  const parser = await PassportListParseThread.open(options.nice ?? 0);
  let bytesRead = 0;
  let lastProgress = 0;
  const progress = async (phase: 'loading' | 'indexing' | 'switching', force = false) => {
    const now = Date.now();
    if (!force && now - lastProgress < PROGRESS_EVERY_MS) {
      return;
    }
    lastProgress = now;
    await setImportProgress(db, importId, { phase, bytesRead, rowsRead: parser.counts.rows });
  };
  const client = await db.connect().catch(async (error: unknown) => {
    await parser.close();
    throw error;
  });
  let loaded = false;
  try {
    const copySql = await prepareLoadTable(client, importId);
    await progress('loading', true);
    const copy = client.query(copyFrom(copySql));
    const copyDone = new Promise<void>((resolve, reject) => {
      copy.on('finish', resolve);
      copy.on('error', reject);
    });
    const write = (chunk: Buffer) =>
      chunk.length === 0 || copy.write(chunk)
        ? undefined
        : new Promise<void>((resolve, reject) => {
            copy.once('drain', resolve);
            copy.once('error', reject);
          });
    try {
      for await (const chunk of openListText({
        path: options.filePath,
        fileName: options.fileName,
        maxBytes: options.maxTextBytes,
        useBunzip2: options.useBunzip2,
        nice: options.nice,
        onRead: (bytes) => {
          bytesRead = bytes;
        },
      })) {
        await write(await parser.push(chunk));
        await progress('loading');
      }
      await write(await parser.end());
    } catch (error) {
      copy.destroy(error as Error);
      await copyDone.catch(() => {});
      throw error;
    }
    copy.end();
    await copyDone;
    await options.onPhase?.('loaded');
    if (parser.counts.accepted === 0) {
      throw new PassportListError(
        parser.counts.rows === 0
          ? 'В файле только заголовок: нет ни одной строки с серией и номером'
          : `Ни одной строки с серией и номером: отклонено строк — ${parser.counts.rejected}`,
      );
    }
    await progress('indexing', true);
    const distinct = await buildListTable(client, importId);
    await options.onPhase?.('indexed');
    await progress('switching', true);
    const previous = await withTransaction(db, (tx) =>
      activateListImport(tx, {
        id: importId,
        recordsTotal: distinct,
        rowsRejected: parser.counts.rejected,
        errors: parser.counts.errors,
      }),
    );
    loaded = true;
    await rm(options.filePath, { force: true });
    if (previous) {
      await new Promise((resolve) => setTimeout(resolve, options.dropGraceMs ?? 0));
      await dropPassportListTables(client, [previous]);
    }
    return { accepted: parser.counts.accepted, distinct, rejected: parser.counts.rejected };
  } catch (error) {
    if (!loaded) {
      await dropStaleStorage(client).catch(() => {});
    }
    if (error instanceof PassportListError) {
      await failImport(db, importId, error.message);
      await dropStaleStorage(client).catch(() => {});
      await rm(options.filePath, { force: true });
      return { failure: error.message };
    }
    throw error;
  } finally {
    client.release();
    await parser.close();
  }
}

/** Drops every list table no version needs (a killed import's, a superseded version's). */
export async function dropStaleStorage(db: pg.Pool | pg.PoolClient): Promise<void> {
  await dropPassportListTables(db, await listStalePassportTables(db));
}
