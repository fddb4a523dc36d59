import {
  type CacheInvalidateResponse,
  SOURCE_TYPE_CODES,
  SOURCE_TYPES,
  type Source,
  type SourceImport,
  type SourceImportProgress,
  type SourceType,
} from '@pledgewatch/contract';
import type pg from 'pg';
import type { AppConfig, RemoteSourceConfig } from '../../../config/env.ts';
import { type Queryable, withTransaction } from '../../../db/pool.ts';
import type { AuthContext } from '../../../lib/auth-context.ts';
import { recordAudit } from '../../audit/index.ts';
import type { RowError } from './dataset-layouts.ts';
import { DEFAULT_CACHE_TTL } from './remote-source.ts';
import { listRequestTotals, type RequestDayRow } from './request-budget.ts';
import {
  activateSourceImport,
  countCoverage,
  type DatasetRecord,
  deleteCachedAnswers,
  deleteInactiveRecords,
  findSourceImports as findSourceImportRows,
  getSourceImport,
  insertSourceImport,
  insertSourceRecords,
  listAnswerStats,
  listDatasetStats,
  listRunningImports,
  type SourceImportRow,
} from './sources.queries.ts';

const INSERT_CHUNK = 5000;

export function toSourceImport(row: SourceImportRow): SourceImport {
  return {
    id: row.id,
    sourceType: row.source_type,
    version: row.version,
    fileName: row.file_name,
    status: row.status,
    recordsTotal: row.records_total,
    rowsRejected: row.rows_rejected,
    errors: row.errors,
    createdBy: row.created_by_name,
    createdAt: row.created_at.toISOString(),
    activatedAt: row.activated_at?.toISOString() ?? null,
    progress: importProgress(row),
    failure: row.failure,
  };
}

function importProgress(row: SourceImportRow): SourceImportProgress | null {
  if (row.status !== 'importing' || !row.phase) {
    return null;
  }
  return {
    phase: row.phase,
    bytesRead: Number(row.bytes_read),
    bytesTotal: row.bytes_total === null ? null : Number(row.bytes_total),
    rowsRead: Number(row.rows_read),
  };
}

/**
 * Stores records as a new version of the source type's dataset and makes it active, all in one
 * transaction: checks see either the old version or the new one, never a mix.
 */
export async function importDataset(options: {
  db: pg.Pool;
  type: SourceType;
  fileName: string;
  records: DatasetRecord[];
  errors?: RowError[];
  rejected?: number;
  createdBy?: string | null;
}): Promise<SourceImport> {
  const id = await withTransaction(options.db, (tx) => importDatasetIn(tx, options));
  // The old versions' records are no longer read by anything; their history rows stay.
  await withTransaction(options.db, (tx) => deleteInactiveRecords(tx, options.type));
  return toSourceImport((await getSourceImport(options.db, id))!);
}

/** The import inside the caller's transaction (demo seeding); returns the new import's id. */
export async function importDatasetIn(
  tx: Queryable,
  options: {
    type: SourceType;
    fileName: string;
    records: DatasetRecord[];
    errors?: RowError[];
    rejected?: number;
    createdBy?: string | null;
  },
): Promise<string> {
  const { type } = options;
  const created = await insertSourceImport(tx, {
    type,
    fileName: options.fileName,
    createdBy: options.createdBy ?? null,
  });
  for (let offset = 0; offset < options.records.length; offset += INSERT_CHUNK) {
    await insertSourceRecords(tx, created.id, type, options.records.slice(offset, offset + INSERT_CHUNK));
  }
  await activateSourceImport(tx, {
    id: created.id,
    type,
    recordsTotal: options.records.length,
    rowsRejected: options.rejected ?? 0,
    errors: options.errors ?? [],
  });
  return created.id;
}

export async function findSourceImports(options: {
  db: pg.Pool;
  type: SourceType;
  page: number;
  pageSize: number;
}): Promise<{ items: SourceImport[]; total: number }> {
  const { items, total } = await findSourceImportRows(options.db, {
    type: options.type,
    limit: options.pageSize,
    offset: (options.page - 1) * options.pageSize,
  });
  return { items: items.map(toSourceImport), total };
}

/**
 * The sources with their health; with `auth`, also the caller's organisation's coverage and waiting
 * items, and money (price, spend today and this month) for admins only: the fields are absent for
 * the other roles, not zero.
 */
export async function listSources(options: {
  db: pg.Pool;
  config: Pick<AppConfig, 'remoteSources'>;
  auth?: AuthContext;
}): Promise<{ items: Source[] }> {
  const { auth } = options;
  const remoteTypes = SOURCE_TYPE_CODES.filter((type) => options.config.remoteSources[type]);
  const [datasets, answers, running, totals, coverage] = await Promise.all([
    listDatasetStats(options.db),
    listAnswerStats(options.db),
    listRunningImports(options.db),
    listRequestTotals(options.db),
    Promise.all(
      remoteTypes.map(async (type) => {
        const counts = auth
          ? await countCoverage(options.db, {
              organisationId: auth.organisationId,
              type,
              kinds: SOURCE_TYPES[type].itemKinds,
              documentTypes: SOURCE_TYPES[type].documentTypes ?? null,
            })
          : null;
        return [type, counts] as const;
      }),
    ),
  ]);
  const totalsOf = new Map(totals.map((row) => [row.source_type, row]));
  const coverageOf = new Map(coverage);
  const seesMoney = auth?.role === 'admin';
  const datasetOf = new Map(datasets.map((row) => [row.source_type, row]));
  const runningOf = new Map(running.map((row) => [row.source_type, row]));
  const answersOf = new Map(answers.map((row) => [row.source_type, row]));
  return {
    items: SOURCE_TYPE_CODES.map((type): Source => {
      const remote = options.config.remoteSources[type];
      const dataset = remote ? undefined : datasetOf.get(type);
      const stats = answersOf.get(type);
      const round = (value: number | null | undefined) =>
        value == null ? null : Math.round(Number(value) * 10) / 10;
      return {
        type,
        name: SOURCE_TYPES[type].name,
        description: SOURCE_TYPES[type].description,
        itemKinds: [...SOURCE_TYPES[type].itemKinds],
        adapter: remote ? 'remote' : 'dataset',
        activeVersion: dataset?.active_version ?? null,
        lastRefreshAt: (remote ? stats?.last_ok_at : dataset?.last_refresh_at)?.toISOString() ?? null,
        recordCount: remote ? null : (dataset?.record_count ?? 0),
        cacheTtlSeconds: remote ? (remote.cacheTtl ?? DEFAULT_CACHE_TTL[type]) : null,
        answerP50Ms: round(stats?.p50),
        answerP95Ms: round(stats?.p95),
        batchP50Ms: round(stats?.batch_p50),
        batchP95Ms: round(stats?.batch_p95),
        batchItemsP50: stats?.batch_items_p50 ?? null,
        consecutiveFailures: stats?.consecutive_failures ?? 0,
        lastFailureAt: stats?.last_failure_at?.toISOString() ?? null,
        lastError: stats?.last_error ?? null,
        importing: importingOf(runningOf.get(type)),
        ...budgetOf(remote, totalsOf.get(type), coverageOf.get(type) ?? null, seesMoney),
      };
    }),
  };
}

function importingOf(row: SourceImportRow | undefined): Source['importing'] {
  const progress = row && importProgress(row);
  return progress ? { version: row.version, ...progress } : null;
}

/** A remote source's budget and coverage as the sources screen shows them (nulls for a dataset). */
function budgetOf(
  remote: RemoteSourceConfig | undefined,
  totals: RequestDayRow | undefined,
  coverage: { covered: number; total: number } | null,
  seesMoney: boolean,
): Pick<
  Source,
  | 'provider'
  | 'rateLimit'
  | 'requestsToday'
  | 'dailyLimit'
  | 'coverage'
  | 'itemsWaiting'
  | 'pricePerRequest'
  | 'spendToday'
  | 'spendMonth'
> {
  const money = seesMoney
    ? {
        pricePerRequest: remote ? remote.price : null,
        spendToday: remote || totals ? Number(totals?.spend_today ?? 0) : null,
        spendMonth: remote || totals ? Number(totals?.spend_month ?? 0) : null,
      }
    : {};
  return {
    provider: remote?.provider ?? null,
    rateLimit: remote?.rateLimit ?? null,
    requestsToday: remote ? (totals?.requests_today ?? 0) : null,
    dailyLimit: remote?.dailyLimit ?? null,
    coverage: coverage ? Math.round((coverage.covered / Math.max(1, coverage.total)) * 1000) / 1000 : null,
    itemsWaiting: coverage ? coverage.total - coverage.covered : null,
    ...money,
  };
}

/** Drops the cached answers of one remote source type, or of all of them. */
export async function invalidateSourceCache(options: {
  db: pg.Pool;
  auth: AuthContext;
  type: SourceType | 'all';
}): Promise<CacheInvalidateResponse> {
  const types = options.type === 'all' ? [...SOURCE_TYPE_CODES] : [options.type];
  const removed = await deleteCachedAnswers(options.db, types);
  await recordAudit(options.db, {
    organisationId: options.auth.organisationId,
    userId: options.auth.userId,
    action: 'source.cache_invalidated',
    entity: 'source',
    entityId: null,
    details: { type: options.type, removed },
  });
  const what = options.type === 'all' ? 'всех источников' : `источника «${SOURCE_TYPES[options.type].name}»`;
  return { message: `Кэш ${what} очищен`, removed };
}
