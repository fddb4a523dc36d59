import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { SourceImport, SourceType } from '@pledgewatch/contract';
import type pg from 'pg';
import type { AppConfig } from '../../../config/env.ts';
import { type Queryable, withTransaction } from '../../../db/pool.ts';
import type { JobQueue } from '../../../jobs/job-definition.ts';
import { AppError } from '../../../lib/app-error.ts';
import type { AuthContext } from '../../../lib/auth-context.ts';
import { recordAudit } from '../../audit/index.ts';
import { dropSupersededListMessage, sourceImportMessage } from '../jobs/check-job-messages.ts';
import { failDatasetVersion, importDatasetVersion } from '../sources/dataset-import.ts';
import { getSourceImport, insertSourceImport } from '../sources/sources.queries.ts';
import { toSourceImport } from '../sources/sources.service.ts';
import { type Bzip2Decoder, openListText } from './decompress.ts';
import {
  activateListImport,
  createListTableFrom,
  dropPassportListTables,
  failImport,
  getImportJob,
  listStalePassportTables,
} from './passport-list.queries.ts';
import { PassportListError, PassportListParser } from './passport-list-format.ts';
import { dropStaleStorage, importPassportList } from './passport-list-import.ts';

export type ListConfig = Pick<AppConfig, 'dataDir' | 'sourceImportMaxBytes' | 'uploadMaxUnzippedBytes'>;

export const sourceImportFilePath = (config: Pick<AppConfig, 'dataDir'>, importId: string) =>
  path.join(config.dataDir, 'source-imports', importId);

const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} МБ`;

/**
 * Reads the head of the list (the first block of a bzip2 file) and refuses at once what is not the
 * MVD list: empty, another header, a `.bz2` that is not bzip2. The rest is read by the import job.
 */
export async function inspectListFile(filePath: string, fileName: string, config: ListConfig): Promise<void> {
  const parser = new PassportListParser();
  for await (const chunk of openListText({
    path: filePath,
    fileName,
    maxBytes: config.uploadMaxUnzippedBytes,
  })) {
    parser.push(chunk);
    return;
  }
  parser.end();
}

/**
 * Creates an `importing` version of the `passport` source for its file at `filePath`, in the
 * caller's transaction: `queued` for a file already on disk, `downloading` while the daily fetch
 * still writes it (its bytes shown on the sources screen).
 */
export async function createListImport(
  tx: Queryable,
  input: {
    /** Another source's dataset file is received and queued the same way (sources/dataset-import.ts). */
    type?: SourceType;
    importId: string;
    filePath: string;
    fileName: string;
    bytes: number | null;
    createdBy: string | null;
    phase: 'queued' | 'downloading';
  },
): Promise<string> {
  const created = await insertSourceImport(tx, {
    type: input.type ?? 'passport',
    fileName: input.fileName,
    createdBy: input.createdBy,
    id: input.importId,
  });
  await tx.query(`UPDATE source_imports SET file_path = $2, phase = $3, bytes_total = $4 WHERE id = $1`, [
    created.id,
    input.filePath,
    input.phase,
    input.bytes,
  ]);
  return created.id;
}

/**
 * Creates an `importing` version of the `passport` source for a list file already on disk and
 * queues its import, in one transaction. Returns the new import's id.
 */
export async function queueListImport(
  db: pg.Pool,
  queue: JobQueue,
  input: {
    type?: SourceType;
    importId: string;
    filePath: string;
    fileName: string;
    bytes: number;
    createdBy: string | null;
  },
): Promise<string> {
  return withTransaction(db, async (tx) => {
    const id = await createListImport(tx, { ...input, phase: 'queued' });
    await queue.send(sourceImportMessage, { importId: id }, { db: tx });
    return id;
  });
}

/** A downloaded list (its `downloading` version, see createListImport) queued for its import. */
export async function queueDownloadedList(
  db: pg.Pool,
  queue: JobQueue,
  input: { importId: string; bytes: number },
): Promise<void> {
  await withTransaction(db, async (tx) => {
    await tx.query(
      `UPDATE source_imports SET phase = 'queued', bytes_read = 0, bytes_total = $2
        WHERE id = $1 AND status = 'importing'`,
      [input.importId, input.bytes],
    );
    await queue.send(sourceImportMessage, { importId: input.importId }, { db: tx });
  });
}

/** A small list made active at once, in the caller's transaction (demo data, fixtures). */
export async function importPassportListIn(
  tx: Queryable,
  options: { fileName: string; passports: readonly string[]; createdBy?: string | null; demo?: boolean },
): Promise<string> {
  const created = await insertSourceImport(tx, {
    type: 'passport',
    fileName: options.fileName,
    createdBy: options.createdBy ?? null,
  });
  await createListTableFrom(tx, created.id, options.passports);
  if (options.demo) {
    await tx.query('UPDATE source_imports SET demo = true WHERE id = $1', [created.id]);
  }
  await activateListImport(tx, {
    id: created.id,
    recordsTotal: new Set(options.passports).size,
    rowsRejected: 0,
    errors: [],
  });
  return created.id;
}

/**
 * `POST /monitoring/sources/{type}/imports`: the file is streamed to DATA_DIR/source-imports/<id>
 * (never into memory) within SOURCE_IMPORT_MAX_BYTES, its head checked (the MVD list: its header; any
 * other dataset: not empty), and the import queued: the answer (202) is the `importing` version; its
 * progress is on the sources screen, and the job `checks.source-import` loads it.
 */
export async function receiveSourceFile(options: {
  db: pg.Pool;
  queue: JobQueue;
  config: ListConfig;
  auth: AuthContext;
  type: SourceType;
  file: { fileName: string; stream: Readable };
}): Promise<SourceImport> {
  const { db, config } = options;
  const importId = randomUUID();
  const filePath = sourceImportFilePath(config, importId);
  const fileName =
    options.file.fileName
      .split('')
      .filter((char) => char >= ' ' && char !== '\u007f')
      .join('')
      .trim()
      .slice(0, 255) || 'file';
  await mkdir(path.dirname(filePath), { recursive: true });
  let tooLarge = false;
  try {
    await pipeline(options.file.stream, createWriteStream(filePath));
    tooLarge = (options.file.stream as Readable & { truncated?: boolean }).truncated === true;
  } catch (error) {
    if ((error as { code?: string }).code !== 'FST_REQ_FILE_TOO_LARGE') {
      await rm(filePath, { force: true });
      throw error;
    }
    tooLarge = true;
  }
  if (tooLarge) {
    await rm(filePath, { force: true });
    throw new AppError('PAYLOAD_TOO_LARGE', {
      message: `Файл больше ${megabytes(config.sourceImportMaxBytes)} (SOURCE_IMPORT_MAX_BYTES)`,
    });
  }
  const bytes = (await stat(filePath)).size;
  try {
    if (options.type === 'passport') {
      await inspectListFile(filePath, fileName, config);
    } else if (bytes === 0) {
      throw new AppError('DATASET_EMPTY', { message: 'Файл пуст: нет ни заголовка, ни строк' });
    }
  } catch (error) {
    await rm(filePath, { force: true });
    throw error instanceof PassportListError
      ? new AppError('PASSPORT_LIST_INVALID', { message: error.message })
      : error;
  }
  await queueListImport(db, options.queue, {
    type: options.type,
    importId,
    filePath,
    fileName,
    bytes,
    createdBy: options.auth.userId,
  });
  await recordAudit(db, {
    organisationId: options.auth.organisationId,
    userId: options.auth.userId,
    action: 'source.imported',
    entity: 'source_import',
    entityId: importId,
    details: { type: options.type, fileName, bytes },
  });
  return toSourceImport((await getSourceImport(db, importId))!);
}

/**
 * The source-import job: runs the queued import of its version. Retried by the queue when it throws
 * (a killed worker, a lost connection): the import starts again from its file. The last attempt's
 * error fails the import, and its file is deleted.
 */
export async function runSourceImport(options: {
  db: pg.Pool;
  /** jobsDbNice: the decompression's OS priority, as the job's database connections'. */
  config: Pick<AppConfig, 'uploadMaxUnzippedBytes'> & Partial<Pick<AppConfig, 'jobsDbNice'>>;
  importId: string;
  lastAttempt: boolean;
  /**
   * The queue of the job that drops a superseded version's table SUPERSEDED_LIST_GRACE_S after the
   * switch; without it (tests) the table is dropped at once.
   */
  queue?: JobQueue;
  decoder?: Bzip2Decoder | 'javascript';
  onPhase?: (phase: string) => Promise<void> | void;
}): Promise<void> {
  const job = await getImportJob(options.db, options.importId);
  if (job?.status !== 'importing') {
    return;
  }
  if (!job.file_path) {
    await failImport(options.db, job.id, 'Файл импорта не найден: загрузите его заново');
    return;
  }
  try {
    if (job.source_type === 'passport') {
      await importPassportList({
        db: options.db,
        importId: job.id,
        filePath: job.file_path,
        fileName: job.file_name,
        maxTextBytes: options.config.uploadMaxUnzippedBytes,
        dropLater: options.queue
          ? (tx, table) => queueSupersededListDrop(tx, options.queue!, table)
          : undefined,
        decoder: options.decoder,
        nice: options.config.jobsDbNice,
        onPhase: options.onPhase,
      });
    } else {
      await importDatasetVersion({
        db: options.db,
        importId: job.id,
        type: job.source_type as SourceType,
        filePath: job.file_path,
        fileName: job.file_name,
        onPhase: options.onPhase,
      });
    }
  } catch (error) {
    if (options.lastAttempt) {
      await failSourceImport(options.db, job, 'Импорт прерван ошибкой: загрузите файл заново');
    }
    throw error;
  }
}

/**
 * How long a superseded passport list version's table is kept after the switch: a check that read
 * the old version just before it still finds the table. A job of its own drops it, so the import's
 * job (a heavy job's slot, a database connection) ends at the switch, and a stop or a restart in
 * between still drops it.
 */
export const SUPERSEDED_LIST_GRACE_S = 30;

async function queueSupersededListDrop(tx: Queryable, queue: JobQueue, table: string): Promise<void> {
  await queue.send(dropSupersededListMessage, { table }, { db: tx, startAfter: SUPERSEDED_LIST_GRACE_S });
}

/**
 * The drop job: the table of a superseded version, unless it is no longer stale (never the active
 * version's nor an importing one's). Dropping a table already gone is a no-op, so a retry is safe.
 */
export async function dropSupersededList(db: pg.Pool, table: string): Promise<void> {
  if ((await listStalePassportTables(db)).includes(table)) {
    await dropPassportListTables(db, [table]);
  }
}

/**
 * An import whose job is given up (quarantined: two of its runs ended their process): failed with a
 * Russian reason, its file deleted and whatever it loaded dropped. The active version is untouched.
 */
export async function abandonSourceImport(options: { db: pg.Pool; importId: string }): Promise<void> {
  const job = await getImportJob(options.db, options.importId);
  if (job?.status !== 'importing') {
    return;
  }
  await failSourceImport(
    options.db,
    job,
    'Импорт дважды прерван остановкой процесса и больше не запускается: загрузите файл заново',
  );
}

/** A version given up: failed with its reason, its file deleted and whatever it loaded dropped. */
async function failSourceImport(
  db: pg.Pool,
  job: { id: string; source_type: string; file_path: string | null },
  failure: string,
): Promise<void> {
  if (job.source_type === 'passport') {
    await failImport(db, job.id, failure);
    await dropStaleStorage(db);
  } else {
    await failDatasetVersion(db, { importId: job.id, type: job.source_type as SourceType, failure });
  }
  if (job.file_path) {
    await rm(job.file_path, { force: true });
  }
}
