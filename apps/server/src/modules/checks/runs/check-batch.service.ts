/** One batch of a check run: every source over the batch's items, events, snapshots and progress. */
import { SOURCE_TYPES, type SourceType } from '@pledgewatch/contract';
import { type Queryable, withTransaction } from '../../../db/pool.ts';
import type { JobQueue } from '../../../jobs/job-definition.ts';
import { DATASET_PROVIDER, recordCheckRun, recordSourceCall } from '../../../lib/metrics.ts';
import { addPhaseTime, type PhaseTimings, phaseTimer } from '../../../lib/phase-timings.ts';
import { notifyEvents } from '../../notifications/index.ts';
import { DATASET_NOT_LOADED } from '../sources/dataset-source.ts';
import type { BatchFindingsSql, SourceAdapter } from '../sources/source-adapter.ts';
import { createSourceAdapters } from '../sources/source-registry.ts';
import { recordSourceAnswers } from '../sources/sources.queries.ts';
import { countSnapshots, getSnapshots, insertEvents, writeSnapshots } from './batch-findings.queries.ts';
import {
  type BatchScope,
  diffDatasetBatch,
  findUnchangedSources,
  type ItemChange,
  listBatchItems,
  scopeHasItems,
} from './batch-matching.queries.ts';
import { keepItemsDue, listItemsPastCutoff, readLastChecks } from './deferred-items.queries.ts';
import { diffFindings, type EventDraft, sameFindings } from './findings-diff.ts';
import {
  addRunEvents,
  type BatchRow,
  type BatchSourceState,
  type CheckRunRow,
  type FinishedRun,
  finishBatch,
  getBatch,
  getCheckRun as getCheckRunRow,
  setBatchSourceStates,
} from './runs.queries.ts';
import type { Deps } from './runs.service.ts';

const scopeFor = (adapter: SourceAdapter, run: CheckRunRow, batch: BatchRow): BatchScope => ({
  organisationId: run.organisation_id,
  kind: batch.kind,
  identifierFrom: batch.identifier_from,
  identifierTo: batch.identifier_to,
  kinds: adapter.itemKinds,
  documentTypes: adapter.documentTypes ?? SOURCE_TYPES[adapter.type].documentTypes ?? null,
});

/** A remote source's answers for the batch, asked before the transaction opens. */
interface RemoteAnswers {
  changes: ItemChange[];
  items: number;
  failedItems: number;
  failure: string | null;
  started: number;
  /** Items not asked: past the run's cutoff, or the day's limit spent (they stay due). */
  deferred: string[];
  /** Items the source itself answered in this batch (not from the cache). */
  answered: number;
}

/** Asks a remote source about every item of the batch: outside any transaction, no lock across HTTP. */
async function askRemoteSource(
  options: Deps & { run: CheckRunRow; batch: BatchRow; adapter: SourceAdapter },
): Promise<RemoteAnswers> {
  const { run, batch, adapter } = options;
  const started = performance.now();
  const batchItems = await listBatchItems(options.db, scopeFor(adapter, run, batch));
  // A source with a daily limit asks only up to the run's cutoff (planned in priority order).
  const past =
    options.config.remoteSources[adapter.type]?.dailyLimit === undefined
      ? new Set<string>()
      : await listItemsPastCutoff(options.db, {
          runId: run.id,
          sourceType: adapter.type,
          items: batchItems.map((item) => ({
            id: item.id,
            identifier: item.identifier,
            documentType: item.document_type ?? '',
          })),
        });
  const items = batchItems.filter((item) => !past.has(item.id));
  const answers = await adapter.checkBatch(
    items.map((item) => ({
      id: item.id,
      kind: item.kind,
      documentType: item.document_type as never,
      identifier: item.identifier,
    })),
  );
  const snapshots = await getSnapshots(
    options.db,
    adapter.type,
    items.map((item) => item.id),
  );
  const result: RemoteAnswers = {
    changes: [],
    items: items.length,
    failedItems: 0,
    failure: null,
    started,
    deferred: [...past],
    answered: 0,
  };
  answers.forEach((answer, index) => {
    const item = items[index]!;
    if (answer.status === 'deferred') {
      result.deferred.push(item.id);
      result.items--;
      return;
    }
    if (answer.status === 'ok' && !answer.fromCache) {
      result.answered++;
    }
    if (answer.status === 'failed') {
      result.failedItems++;
      result.failure = answer.error;
      return;
    }
    const before = snapshots.get(item.id) ?? [];
    if (!sameFindings(before, answer.findings)) {
      result.changes.push({
        item_id: item.id,
        identifier: item.identifier,
        before,
        after: answer.findings,
        first_check: item.first_check,
      });
    }
  });
  return result;
}

/** One source applied to the batch: its state (its events counted once they are inserted) and its events. */
interface AppliedSource {
  type: SourceType;
  state: BatchSourceState;
  /**
   * Whether the batch got an answer from the source at all: a failure, or items it was asked about
   * (a remote source's cached answers and a batch with nothing for the source are none). Only these
   * are recorded as its answers, so only a real answer ends a failure episode or moves freshness.
   */
  answered: boolean;
  events: (EventDraft & { itemId: string; sourceType: SourceType })[];
}

/** A dataset source's match of the batch as it was last done, when nothing it reads has changed since. */
type UnchangedMatch = { items: number; findings: number };

/**
 * The dataset sources whose last match over exactly this batch's range saw the same items and the
 * same inputs (findUnchangedSources): one query per distinct item scope (all of a VIN batch's
 * sources share one).
 */
async function unchangedSources(
  tx: Queryable,
  options: {
    run: CheckRunRow;
    batch: BatchRow;
    adapters: SourceAdapter[];
    /** The dataset sources' matches read for the batch; null for a source with no data. */
    matches: Map<SourceType, BatchFindingsSql | null>;
  },
): Promise<Map<SourceType, UnchangedMatch>> {
  const groups = new Map<
    string,
    { scope: ReturnType<typeof scopeFor>; sources: { type: SourceType; findings: BatchFindingsSql }[] }
  >();
  for (const adapter of options.adapters) {
    const findings = options.matches.get(adapter.type);
    const scope = scopeFor(adapter, options.run, options.batch);
    if (!findings || !scopeHasItems(scope)) {
      continue;
    }
    const key = scope.kind === 'vin' ? 'vin' : JSON.stringify(scope.documentTypes);
    const group = groups.get(key) ?? { scope, sources: [] };
    group.sources.push({ type: adapter.type, findings });
    groups.set(key, group);
  }
  const unchanged = new Map<SourceType, UnchangedMatch>();
  for (const { scope, sources } of groups.values()) {
    for (const [type, match] of await findUnchangedSources(tx, scope, sources)) {
      unchanged.set(type, match);
    }
  }
  return unchanged;
}

/**
 * One source over the locked batch, inside the batch's transaction: matches (dataset sources) or
 * takes the remote answers, diffs against the snapshot and writes the new snapshots. Its events are
 * returned, inserted with the other sources' in one statement (insertBatchEvents). A dataset source
 * whose inputs are those of the range's last match is not matched again: it finds nothing new.
 */
async function applySource(
  tx: Queryable,
  options: {
    run: CheckRunRow;
    batch: BatchRow;
    adapter: SourceAdapter;
    remote: RemoteAnswers | undefined;
    /** A dataset source's match (null: no data), read before the batch's unchanged sources. */
    match: BatchFindingsSql | null | undefined;
    unchanged: UnchangedMatch | undefined;
    timings?: PhaseTimings;
  },
): Promise<AppliedSource> {
  const { run, batch, adapter, remote, unchanged } = options;
  const timed = phaseTimer(options.timings);
  const started = remote?.started ?? performance.now();
  const previous = batch.sources[adapter.type];
  const scope = scopeFor(adapter, run, batch);
  let failure = remote?.failure ?? null;
  let result: { changes: ItemChange[]; items: number; findings?: number } | undefined = remote;
  if (!result) {
    const findings = options.match;
    if (!findings) {
      failure = DATASET_NOT_LOADED;
      result = { changes: [], items: 0, findings: 0 };
    } else if (!scopeHasItems(scope)) {
      // A source of the other item kind: nothing in this batch to ask it about.
      result = { changes: [], items: 0, findings: 0 };
    } else if (unchanged) {
      result = { changes: [], ...unchanged };
    } else {
      result = await timed(`match+diff+snapshots ${adapter.type}`, () =>
        diffDatasetBatch(tx, { ...scope, sourceType: adapter.type, runId: run.id, findings }),
      );
    }
  }
  const diffStarted = performance.now();
  const events: AppliedSource['events'] = [];
  for (const change of result.changes) {
    for (const draft of diffFindings({
      source: adapter.type,
      before: change.before ?? [],
      after: change.after ?? [],
      firstCheck: change.first_check,
      organisationId: run.organisation_id,
    })) {
      events.push({ ...draft, itemId: change.item_id, sourceType: adapter.type });
    }
  }
  addPhaseTime(options.timings, 'events from changes (JS)', performance.now() - diffStarted);
  if (remote) {
    // Dataset sources wrote theirs in diffDatasetBatch, in this same transaction.
    await writeSnapshots(tx, {
      organisationId: run.organisation_id,
      sourceType: adapter.type,
      runId: run.id,
      items: result.changes.map((change) => ({
        itemId: change.item_id,
        identifier: change.identifier ?? null,
        findings: change.after ?? [],
      })),
    });
  }
  const failedItems = remote?.failedItems ?? 0;
  const deferred = remote?.deferred ?? [];
  return {
    type: adapter.type,
    events,
    answered: failure !== null || (remote ? remote.answered > 0 : result.items > 0),
    state: {
      ...(deferred.length > 0 ? { deferred } : {}),
      status: failure ? 'failed' : 'done',
      ...(unchanged && !failure ? { unchanged: true } : {}),
      retryable: failure !== null && failure !== DATASET_NOT_LOADED,
      attempts: (previous?.attempts ?? 0) + 1,
      items: result.items - failedItems,
      findings: result.findings ?? (await countSnapshots(tx, { ...scope, sourceType: adapter.type })),
      // Completed with the inserted count in insertBatchEvents.
      events: previous?.events ?? 0,
      error: failure ? (failedItems > 1 ? `${failure}; объектов без ответа: ${failedItems}` : failure) : null,
      durationMs: Math.round(performance.now() - started),
    },
  };
}

/**
 * Every source's events of the batch in one statement, their notifications, and the sources' states
 * and answers. Last in the batch's transaction on purpose: the event triggers' rollup rows
 * (0008, 0016, 0018) are shared by concurrent batches and locked until the commit, so taken per
 * source they made each batch wait for another's whole matching.
 */
async function insertBatchEvents(
  tx: Queryable,
  options: {
    queue: JobQueue;
    run: CheckRunRow;
    batchNo: number;
    applied: AppliedSource[];
    timings?: PhaseTimings;
  },
): Promise<number> {
  const { run, applied } = options;
  const timed = phaseTimer(options.timings);
  const inserted = await timed('insert events', () =>
    insertEvents(tx, {
      organisationId: run.organisation_id,
      runId: run.id,
      events: applied.flatMap((source) => source.events),
    }),
  );
  // Deliveries are queued in the same transaction: they exist exactly when the events do.
  await timed('notify', () =>
    notifyEvents({
      db: tx,
      queue: options.queue,
      organisationId: run.organisation_id,
      eventIds: inserted.map((event) => event.id),
    }),
  );
  for (const source of applied) {
    source.state.events += inserted.filter((event) => event.source_type === source.type).length;
  }
  await timed('batch state', () =>
    setBatchSourceStates(
      tx,
      { runId: run.id, batchNo: options.batchNo },
      Object.fromEntries(applied.map((source) => [source.type, source.state])),
    ),
  );
  await timed('source answers', () =>
    recordSourceAnswers(
      tx,
      applied
        .filter((source) => source.answered)
        .map(({ type, state }) => ({
          type,
          mode: 'batch',
          items: state.items,
          ok: state.status === 'done',
          durationMs: state.durationMs,
          error: state.error,
        })),
    ),
  );
  return inserted.length;
}

/**
 * One batch job: remote sources are asked first, then every source is applied and the batch
 * finished in one transaction under the batch's row lock (one commit a batch: the per-source
 * transactions and their commits were a large part of a run). Sources that failed with a retryable
 * error make the job throw after the commit so the queue retries it (done sources are skipped then);
 * on the last attempt the batch is finished with those sources marked failed.
 */
export async function processCheckBatch(
  options: Deps & {
    queue: JobQueue;
    runId: string;
    batchNo: number;
    lastAttempt: boolean;
    /** Where to add the time spent per phase (the checks benchmark prints it); none by default. */
    timings?: PhaseTimings;
  },
): Promise<void> {
  const timed = phaseTimer(options.timings);
  const run = await getCheckRunRow(options.db, options.runId);
  const batch = run && (await getBatch(options.db, run.id, options.batchNo));
  if (!run || !batch || batch.status !== 'queued') {
    return;
  }
  const pending = (batchRow: BatchRow) =>
    createSourceAdapters({ ...options, organisationId: run.organisation_id }).filter((adapter) => {
      const previous = batchRow.sources[adapter.type];
      return !(previous?.status === 'done' || (previous?.status === 'failed' && !previous.retryable));
    });
  const remote = new Map<SourceType, RemoteAnswers>();
  for (const adapter of pending(batch).filter((a) => !a.batchFindings)) {
    remote.set(adapter.type, await askRemoteSource({ ...options, run, batch, adapter }));
  }
  let finishedRun: FinishedRun | null = null;
  let appliedSources: AppliedSource[] = [];
  const failed = await timed('batch transaction (incl. commit)', () =>
    withTransaction(options.db, async (tx) => {
      // No wait for the WAL flush at commit: the batch is only trusted once the job's completion (a
      // later, synchronous commit) is durable, and WAL is flushed in order, so a crash can lose this
      // commit only together with that completion, and the queue then runs the batch again.
      await tx.query('SET LOCAL synchronous_commit = off');
      const locked = await timed('lock batch', () => getBatch(tx, run.id, batch.batch_no, { lock: true }));
      if (locked?.status !== 'queued') {
        return [];
      }
      // Sources pending under the lock: a concurrent attempt may have finished some meanwhile.
      const adapters = pending(locked).filter((adapter) => adapter.batchFindings || remote.has(adapter.type));
      const matches = new Map<SourceType, BatchFindingsSql | null>();
      for (const adapter of adapters.filter((a) => a.batchFindings && !remote.has(a.type))) {
        matches.set(adapter.type, await timed('active dataset', () => adapter.batchFindings!()));
      }
      const unchanged = await timed('unchanged sources', () =>
        unchangedSources(tx, { run, batch: locked, adapters, matches }),
      );
      const applied: AppliedSource[] = [];
      for (const adapter of adapters) {
        applied.push(
          await timed('source total', () =>
            applySource(tx, {
              ...options,
              run,
              batch: locked,
              adapter,
              remote: remote.get(adapter.type),
              match: matches.get(adapter.type),
              unchanged: unchanged.get(adapter.type),
            }),
          ),
        );
      }
      appliedSources = applied;
      const inserted = await insertBatchEvents(tx, { ...options, run, batchNo: locked.batch_no, applied });
      const failedTypes = applied
        .filter((source) => source.state.status === 'failed' && source.state.retryable)
        .map((source) => source.type);
      // The run's row is written only here, at the transaction's end: its lock is held until the
      // commit, and taken per source it made concurrent batches wait for each other's whole batch.
      await addRunEvents(tx, run.id, inserted);
      if (failedTypes.length === 0 || options.lastAttempt) {
        // Items a source did not ask about (its day's limit) keep their last check: still due.
        const states = { ...locked.sources, ...Object.fromEntries(applied.map((s) => [s.type, s.state])) };
        const deferred = [...new Set(Object.values(states).flatMap((state) => state?.deferred ?? []))];
        const lastChecks = await readLastChecks(tx, deferred);
        finishedRun = await timed('finish batch (last checked, progress)', () =>
          finishBatch(tx, {
            runId: run.id,
            batchNo: locked.batch_no,
            organisationId: run.organisation_id,
            kind: locked.kind,
            identifierFrom: locked.identifier_from,
            identifierTo: locked.identifier_to,
            items: locked.items,
          }),
        );
        await keepItemsDue(tx, { organisationId: run.organisation_id, kind: locked.kind, lastChecks });
      }
      return failedTypes;
    }),
  );
  for (const { type, state } of appliedSources.filter((source) => !remote.has(source.type))) {
    // Dataset sources here, once per batch match; HTTP sources count their calls themselves.
    recordSourceCall(
      { source: type, provider: DATASET_PROVIDER },
      state.status === 'done'
        ? { answered: state.items, failed: 0, seconds: state.durationMs / 1000 }
        : { answered: 0, failed: Math.max(1, state.items), seconds: state.durationMs / 1000 },
    );
  }
  if (finishedRun) {
    // After the commit: a batch rolled back and run again records its run once.
    const { trigger, status, seconds } = finishedRun;
    recordCheckRun(trigger, status, seconds);
  }
  if (failed.length > 0 && !options.lastAttempt) {
    throw new Error(`sources failed in batch ${batch.batch_no}: ${failed.join(', ')}`);
  }
}
