import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import type { AppConfig } from '../../../config/env.ts';
import { withTransaction } from '../../../db/pool.ts';
import type { JobQueue } from '../../../jobs/job-definition.ts';
import {
  OutboundError,
  type OutboundPolicy,
  outboundDownload,
} from '../../../lib/outbound/outbound-request.ts';
import { failImport, setImportProgress } from './passport-list.queries.ts';
import {
  createListImport,
  inspectListFile,
  queueDownloadedList,
  sourceImportFilePath,
} from './passport-list.service.ts';
import { PassportListError } from './passport-list-format.ts';

type FetchConfig = Pick<
  AppConfig,
  'dataDir' | 'sourceImportMaxBytes' | 'uploadMaxUnzippedBytes' | 'passportListUrl' | 'passportListTimeoutMs'
>;

interface FetchState {
  url: string;
  etag: string | null;
  last_modified: string | null;
  content_length: string | null;
  import_status: string | null;
}

export type FetchOutcome =
  | { result: 'off' | 'busy' | 'unchanged' }
  | { result: 'queued'; importId: string }
  | { result: 'failed'; reason: string };

/** How often a download's bytes are written to its version's progress. */
const PROGRESS_EVERY_MS = 1000;
/** Held by the fetch for its whole run (a session lock: a killed process lets go of it). */
const FETCH_LOCK = "pg_try_advisory_lock(724611101, hashtext('passport'))";
const FETCH_UNLOCK = "pg_advisory_unlock(724611101, hashtext('passport'))";
const INTERRUPTED =
  'Скачивание перечня прервано остановкой процесса: оно начнётся заново при следующей проверке адреса';

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? null;

/**
 * The daily look at SOURCE_PASSPORT_LIST_URL: a conditional GET (If-None-Match / If-Modified-Since
 * from the last download; a server that ignores them is compared by the same validators, one that
 * sends neither by Content-Length, before its body is read). A changed file is streamed to DATA_DIR/source-imports/, its head checked, and queued as
 * a new version of the `passport` source (the import job loads it). The download goes through the
 * outbound client: no redirect followed, one deadline (SOURCE_PASSPORT_LIST_TIMEOUT_MS). Anything
 * else than the list — a 404, an HTML page, a redirect — is a failure with a Russian reason, kept on
 * the fetch's row; nothing is left on disk and the active version is untouched.
 */
export async function fetchPassportList(options: {
  db: pg.Pool;
  queue: JobQueue;
  config: FetchConfig;
  /** The operator's URL is trusted (as SOURCE_<TYPE>_URL): tests pass their resolver-free policy. */
  policy?: OutboundPolicy;
}): Promise<FetchOutcome> {
  const url = options.config.passportListUrl;
  if (!url) {
    return { result: 'off' };
  }
  const lock = await options.db.connect();
  try {
    if (!(await lock.query<{ locked: boolean }>(`SELECT ${FETCH_LOCK} AS locked`)).rows[0]!.locked) {
      return { result: 'busy' };
    }
    try {
      // Whoever held the lock before is gone: a version it left downloading will never be finished.
      const stale = await options.db.query<{ file_path: string | null }>(
        `WITH stale AS (
           SELECT id, file_path FROM source_imports
            WHERE source_type = 'passport' AND status = 'importing' AND phase = 'downloading' FOR UPDATE)
         UPDATE source_imports si SET status = 'failed', phase = NULL, failure = $1, file_path = NULL
           FROM stale WHERE si.id = stale.id RETURNING stale.file_path`,
        [INTERRUPTED],
      );
      for (const row of stale.rows) {
        if (row.file_path) {
          await rm(row.file_path, { force: true });
        }
      }
      return await fetchUnlocked({ ...options, url });
    } finally {
      await lock.query(`SELECT ${FETCH_UNLOCK}`);
    }
  } finally {
    lock.release();
  }
}

async function fetchUnlocked(options: {
  db: pg.Pool;
  queue: JobQueue;
  config: FetchConfig;
  policy?: OutboundPolicy;
  url: string;
}): Promise<FetchOutcome> {
  const { db, config, url } = options;
  const running = await db.query(
    `SELECT 1 FROM source_imports WHERE source_type = 'passport' AND status = 'importing'`,
  );
  if (running.rows.length > 0) {
    return { result: 'busy' };
  }
  const { rows } = await db.query<FetchState>(
    `SELECT f.url, f.etag, f.last_modified, f.content_length::text, si.status AS import_status
       FROM source_list_fetches f LEFT JOIN source_imports si ON si.id = f.import_id
      WHERE f.source_type = 'passport'`,
  );
  // Validators count only for the same address, and only if their file was not refused.
  const last = rows[0]?.url === url && rows[0].import_status !== 'failed' ? rows[0] : undefined;
  const importId = randomUUID();
  const filePath = sourceImportFilePath(config, importId);
  await mkdir(path.dirname(filePath), { recursive: true });
  const record = (values: {
    error: string | null;
    etag?: string | null;
    lastModified?: string | null;
    length?: string | null;
    importId?: string;
  }) =>
    db.query(
      `INSERT INTO source_list_fetches AS f (source_type, url, etag, last_modified, content_length, checked_at,
                                            changed_at, last_error, import_id)
       VALUES ('passport', $1, $2, $3, $4, now(), CASE WHEN $6::uuid IS NOT NULL THEN now() END, $5, $6)
       ON CONFLICT (source_type) DO UPDATE SET url = $1, checked_at = now(), last_error = $5,
         etag = CASE WHEN $6::uuid IS NOT NULL THEN $2 ELSE f.etag END,
         last_modified = CASE WHEN $6::uuid IS NOT NULL THEN $3 ELSE f.last_modified END,
         content_length = CASE WHEN $6::uuid IS NOT NULL THEN $4::bigint ELSE f.content_length END,
         changed_at = CASE WHEN $6::uuid IS NOT NULL THEN now() ELSE f.changed_at END,
         import_id = coalesce($6, f.import_id)`,
      [
        url,
        values.etag ?? null,
        values.lastModified ?? null,
        values.length ?? null,
        values.error,
        values.importId ?? null,
      ],
    );
  let refusal: string | null = null;
  let unchanged = false;
  const fileName = decodeURIComponent(
    new URL(url).pathname.split('/').pop() || 'list_of_expired_passports.csv.bz2',
  );
  // The version exists from the first byte of the body, so the sources screen shows the download.
  let created = undefined as Promise<unknown> | undefined;
  let progress: Promise<unknown> = Promise.resolve();
  let total: number | null = null;
  let reported = 0;
  try {
    const answer = await outboundDownload(url, {
      headers: {
        ...(last?.etag ? { 'if-none-match': last.etag } : {}),
        ...(last?.last_modified ? { 'if-modified-since': last.last_modified } : {}),
      },
      timeoutMs: config.passportListTimeoutMs,
      policy: options.policy ?? { allowedRanges: [], trusted: true },
      maxBytes: config.sourceImportMaxBytes,
      open: () => {
        created = withTransaction(db, (tx) =>
          createListImport(tx, {
            importId,
            filePath,
            fileName,
            bytes: total,
            createdBy: null,
            phase: 'downloading',
          }),
        );
        progress = created;
        // Awaited below; meanwhile a failure of it must not count as an unhandled rejection.
        created.catch(() => {});
        return createWriteStream(filePath);
      },
      onBytes: (bytes) => {
        const now = Date.now();
        if (now - reported < PROGRESS_EVERY_MS) {
          return;
        }
        reported = now;
        // Chained: the updates land in order, each after the version exists.
        progress = progress.then(() =>
          setImportProgress(db, importId, { phase: 'downloading', bytesRead: bytes }),
        );
        progress.catch(() => {});
      },
      accept(status, headers) {
        if (status === 304) {
          unchanged = true;
          return false;
        }
        if (status !== 200) {
          refusal =
            status >= 300 && status < 400
              ? `Адрес перечня перенаправляет (${status}) на другой адрес; переходы не выполняются — укажите конечный адрес`
              : `Адрес перечня ответил ошибкой ${status}`;
          return false;
        }
        if (/text\/html/i.test(header(headers['content-type']) ?? '')) {
          refusal = 'По адресу перечня пришла страница HTML, а не файл перечня';
          return false;
        }
        const etag = header(headers.etag);
        const lastModified = header(headers['last-modified']);
        const length = header(headers['content-length']);
        total = Number(length) || null;
        // The strongest validator the server gives decides: a server may ignore the conditional
        // headers and answer 200 with the same file, which is then not downloaded again.
        if (
          last &&
          ((etag && etag === last.etag) ||
            (!etag && lastModified && lastModified === last.last_modified) ||
            (!etag && !lastModified && length && length === last.content_length))
        ) {
          unchanged = true;
          return false;
        }
        return true;
      },
    });
    if (unchanged || refusal) {
      await record({ error: refusal });
      return unchanged ? { result: 'unchanged' } : { result: 'failed', reason: refusal! };
    }
    await progress;
    await inspectListFile(filePath, fileName, config);
    await queueDownloadedList(db, options.queue, { importId, bytes: (await stat(filePath)).size });
    await record({
      error: null,
      etag: header(answer.headers.etag),
      lastModified: header(answer.headers['last-modified']),
      length: header(answer.headers['content-length']),
      importId,
    });
    return { result: 'queued', importId };
  } catch (error) {
    await rm(filePath, { force: true });
    if (created) {
      await progress.catch(() => {});
      await failImport(
        db,
        importId,
        error instanceof PassportListError
          ? error.message
          : error instanceof OutboundError
            ? `Перечень не скачан: ${error.message}`
            : 'Скачивание перечня прервано ошибкой',
      );
    }
    const reason =
      error instanceof PassportListError
        ? `Файл по адресу перечня не принят: ${error.message}`
        : error instanceof OutboundError
          ? `Перечень не скачан: ${error.message}`
          : null;
    if (!reason) {
      throw error;
    }
    await record({ error: reason });
    return { result: 'failed', reason };
  }
}
