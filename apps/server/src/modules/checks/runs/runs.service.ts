/** Check runs: starting one, planning it into batches, and reading runs with their progress. */
import { type CheckRun, type FailedSource, SOURCE_TYPE_CODES, SOURCE_TYPES } from '@pledgewatch/contract';
import type pg from 'pg';
import type { AppConfig } from '../../../config/env.ts';
import { withTransaction } from '../../../db/pool.ts';
import type { JobQueue } from '../../../jobs/job-definition.ts';
import { AppError } from '../../../lib/app-error.ts';
import type { AuthContext } from '../../../lib/auth-context.ts';
import { recordAudit } from '../../audit/index.ts';
import { checkBatchMessage, planCheckRunMessage } from '../jobs/check-job-messages.ts';
import { requestsLeftToday } from '../sources/request-budget.ts';
import { planSourceCutoff } from './deferred-items.queries.ts';
import { listRunFailedSources } from './run-failures.queries.ts';
import {
  type BatchRow,
  type CheckRunRow,
  findCheckRuns as findCheckRunRows,
  getCheckRun as getCheckRunRow,
  insertCheckRun,
  listBatchNumbers,
  listBatchSourceStates,
  planBatches,
  updateRun,
} from './runs.queries.ts';

export type Deps = { db: pg.Pool; config: Pick<AppConfig, 'remoteSources' | 'checkBatchSize'> };

function toCheckRun(
  row: CheckRunRow,
  failedSources: FailedSource[],
  batches?: Pick<BatchRow, 'sources' | 'items'>[],
): CheckRun {
  return {
    id: row.id,
    trigger: row.trigger,
    status: row.status,
    itemsTotal: row.items_total,
    itemsDone: row.items_done,
    batchesTotal: row.batches_total,
    batchesDone: row.batches_done,
    eventsCreated: row.events_created,
    error: row.error,
    createdBy: row.created_by_name,
    createdAt: row.created_at.toISOString(),
    startedAt: row.started_at?.toISOString() ?? null,
    finishedAt: row.finished_at?.toISOString() ?? null,
    sources: batches
      ? SOURCE_TYPE_CODES.map((type) => {
          const states = batches.map((batch) => batch.sources[type]).filter((state) => state !== undefined);
          const done = states.filter((state) => state.status === 'done');
          const failed = states.filter((state) => state.status === 'failed');
          return {
            type,
            name: SOURCE_TYPES[type].name,
            batchesTotal: row.batches_total,
            batchesDone: done.length,
            batchesFailed: failed.length,
            itemsChecked: done.reduce((sum, state) => sum + state.items, 0),
            findings: states.reduce((sum, state) => sum + state.findings, 0),
            events: states.reduce((sum, state) => sum + state.events, 0),
            lastError: failed.at(-1)?.error ?? null,
          };
        })
      : [],
    failedSources,
  };
}

/** Creates a run and queues its planning; one unfinished run per organisation. */
export async function startCheckRun(
  options: Deps & {
    queue: JobQueue;
    organisationId: string;
    trigger: 'manual' | 'scheduled';
    /** Who started it; null for the schedule. */
    userId: string | null;
  },
): Promise<CheckRun> {
  const id = await withTransaction(options.db, async (tx) => {
    const runId = await insertCheckRun(tx, {
      organisationId: options.organisationId,
      trigger: options.trigger,
      createdBy: options.userId,
      batchSize: options.config.checkBatchSize,
    });
    if (!runId) {
      throw new AppError('CHECK_RUN_IN_PROGRESS');
    }
    await options.queue.send(planCheckRunMessage, { runId }, { db: tx });
    if (options.userId) {
      await recordAudit(tx, {
        organisationId: options.organisationId,
        userId: options.userId,
        action: 'check_run.started',
        entity: 'check_run',
        entityId: runId,
      });
    }
    return runId;
  });
  return toCheckRun((await getCheckRunRow(options.db, id))!, []);
}

/**
 * A run over some items only (the vehicles of a just-registered pledge package), queued like any
 * other. Returns null while the organisation has an unfinished run: the caller tries again later.
 */
export async function startScopedCheckRun(options: {
  db: pg.Pool;
  queue: JobQueue;
  config: Pick<AppConfig, 'checkBatchSize'>;
  organisationId: string;
  trigger: 'pledge_registered';
  identifiers: string[];
}): Promise<string | null> {
  return withTransaction(options.db, async (tx) => {
    const runId = await insertCheckRun(tx, {
      organisationId: options.organisationId,
      trigger: options.trigger,
      createdBy: null,
      batchSize: options.config.checkBatchSize,
      itemScope: options.identifiers,
    });
    if (runId) {
      await options.queue.send(planCheckRunMessage, { runId }, { db: tx });
    }
    return runId;
  });
}

/**
 * Cuts the run into batches and queues one job per batch, in one transaction. A remote source with
 * a daily limit that cannot take a request for every item that needs one today gets the run's
 * cutoff: the items in priority order up to the requests left (deferred-items.queries.ts).
 */
export async function planCheckRun(options: {
  db: pg.Pool;
  queue: JobQueue;
  runId: string;
  config?: Pick<AppConfig, 'remoteSources'>;
  /** The clock of the daily limits; now by default. */
  now?: Date;
}): Promise<void> {
  await withTransaction(options.db, async (tx) => {
    const run = await getCheckRunRow(tx, options.runId, { lock: true });
    if (run?.status !== 'queued') {
      return;
    }
    const planned = await planBatches(tx, {
      id: run.id,
      organisationId: run.organisation_id,
      batchSize: run.batch_size,
      itemScope: run.item_scope,
    });
    for (const type of SOURCE_TYPE_CODES) {
      const dailyLimit = options.config?.remoteSources[type]?.dailyLimit;
      if (dailyLimit === undefined) {
        continue;
      }
      await planSourceCutoff(tx, {
        runId: run.id,
        organisationId: run.organisation_id,
        sourceType: type,
        kinds: SOURCE_TYPES[type].itemKinds,
        documentTypes: SOURCE_TYPES[type].documentTypes ?? null,
        itemScope: run.item_scope,
        requestsLeft: (await requestsLeftToday(tx, type, dailyLimit, options.now)) ?? 0,
      });
    }
    const now = new Date();
    if (planned.batches === 0) {
      await updateRun(tx, run.id, { status: 'completed', started_at: now, finished_at: now });
      return;
    }
    await updateRun(tx, run.id, {
      status: 'running',
      started_at: now,
      items_total: planned.items,
      batches_total: planned.batches,
    });
    for (const batchNo of await listBatchNumbers(tx, run.id)) {
      await options.queue.send(checkBatchMessage, { runId: run.id, batchNo }, { db: tx });
    }
  });
}

export async function getCheckRun(options: {
  db: pg.Pool;
  auth: AuthContext;
  runId: string;
}): Promise<CheckRun> {
  const row = await getCheckRunRow(options.db, options.runId, {
    organisationId: options.auth.organisationId,
  });
  if (!row) {
    throw new AppError('NOT_FOUND', { message: 'Проверка не найдена' });
  }
  const [batches, failed] = await Promise.all([
    listBatchSourceStates(options.db, row.id),
    listRunFailedSources(options.db, [row.id]),
  ]);
  return toCheckRun(row, failed.get(row.id) ?? [], batches);
}

export async function findCheckRuns(options: {
  db: pg.Pool;
  auth: AuthContext;
  page: number;
  pageSize: number;
}): Promise<{ items: CheckRun[]; total: number }> {
  const { items, total } = await findCheckRunRows(options.db, {
    organisationId: options.auth.organisationId,
    limit: options.pageSize,
    offset: (options.page - 1) * options.pageSize,
  });
  const failed = await listRunFailedSources(
    options.db,
    items.map((row) => row.id),
  );
  return { items: items.map((row) => toCheckRun(row, failed.get(row.id) ?? [])), total };
}
