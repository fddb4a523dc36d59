import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import type { AppConfig } from '../../../config/env.ts';
import type { JobQueue } from '../../../jobs/job-definition.ts';
import {
  OutboundError,
  type OutboundPolicy,
  outboundDownload,
} from '../../../lib/outbound/outbound-request.ts';
import { inspectListFile, queueListImport, sourceImportFilePath } from './passport-list.service.ts';
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

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? null;

/**
 * The daily look at SOURCE_PASSPORT_LIST_URL: a conditional GET (If-None-Match / If-Modified-Since
 * from the last download; a server that sends neither is compared by Content-Length before its body
 * is read). A changed file is streamed to DATA_DIR/source-imports/, its head checked, and queued as
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
  const { db, config } = options;
  const url = config.passportListUrl;
  if (!url) {
    return { result: 'off' };
  }
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
  try {
    const answer = await outboundDownload(url, {
      headers: {
        ...(last?.etag ? { 'if-none-match': last.etag } : {}),
        ...(last?.last_modified ? { 'if-modified-since': last.last_modified } : {}),
      },
      timeoutMs: config.passportListTimeoutMs,
      policy: options.policy ?? { allowedRanges: [], trusted: true },
      maxBytes: config.sourceImportMaxBytes,
      open: () => createWriteStream(filePath),
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
        const length = header(headers['content-length']);
        if (
          last &&
          ((etag && etag === last.etag) ||
            (!etag && !headers['last-modified'] && length && length === last.content_length))
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
    const fileName = decodeURIComponent(
      new URL(url).pathname.split('/').pop() || 'list_of_expired_passports.csv.bz2',
    );
    await inspectListFile(filePath, fileName, config);
    const bytes = Number(header(answer.headers['content-length']) ?? 0) || 0;
    await queueListImport(db, options.queue, { importId, filePath, fileName, bytes, createdBy: null });
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
