/** One batch of a check run: every source over the batch's items, events, snapshots and progress. */
import { SOURCE_TYPES, type SourceType } from '@pledgewatch/contract';
import { withTransaction } from '../../../db/pool.ts';
import type { JobQueue } from '../../../jobs/job-definition.ts';
import { addPhaseTime, type PhaseTimings, phaseTimer } from '../../../lib/phase-timings.ts';
import { notifyEvents } from '../../notifications/index.ts';
import { DATASET_NOT_LOADED } from '../sources/dataset-source.ts';
import type { SourceAdapter } from '../sources/source-adapter.ts';
import { createSourceAdapters } from '../sources/source-registry.ts';
import { recordSourceAnswers } from '../sources/sources.queries.ts';
import { diffFindings, type EventDraft, sameFindings } from './findings-diff.ts';
import {
  addRunEvents,
  type BatchRow,
  type BatchScope,
  type BatchSourceState,
  type CheckRunRow,
  countSnapshots,
  diffDatasetBatch,
  finishBatch,
  getBatch,
  getCheckRun as getCheckRunRow,
  getSnapshots,
  type ItemChange,
  insertEvents,
  listBatchItems,
  scopeHasItems,
  setBatchSourceState,
  writeSnapshots,
} from './runs.queries.ts';
import type { Deps } from './runs.service.ts';

const scopeFor = (adapter: SourceAdapter, run: CheckRunRow, batch: BatchRow): BatchScope => ({
  organisationId: run.organisation_id,
  kind: batch.kind,
  identifierFrom: batch.identifier_from,
  identifierTo: batch.identifier_to,
  kinds: adapter.itemKinds,
  documentTypes: SOURCE_TYPES[adapter.type].documentTypes ?? null,
});

/**
 * Runs one source over one batch: matches, diffs against the snapshot, and writes the events, the
 * new snapshot and the source's state in one transaction under the batch's row lock. A source
 * already `done` for the batch is skipped, and the events' unique key absorbs any replay.
 */
async function runSourceOnBatch(
  options: Deps & {
    queue: JobQueue;
    run: CheckRunRow;
    batchNo: number;
    adapter: SourceAdapter;
    timings?: PhaseTimings;
  },
): Promise<BatchSourceState> {
  const { run, adapter } = options;
  const timed = phaseTimer(options.timings);
  const started = performance.now();
  let failedItems = 0;
  let failure: string | null = null;
  let remoteAnswers: { changes: ItemChange[]; items: number } | undefined;

  // Remote sources are asked before the transaction opens: no lock is held across HTTP calls.
  if (!adapter.batchFindings) {
    const batch = (await getBatch(options.db, run.id, options.batchNo))!;
    const items = await listBatchItems(options.db, scopeFor(adapter, run, batch));
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
    const changes: ItemChange[] = [];
    answers.forEach((answer, index) => {
      const item = items[index]!;
      if (answer.status === 'failed') {
        failedItems++;
        failure = answer.error;
        return;
      }
      const before = snapshots.get(item.id) ?? [];
      if (!sameFindings(before, answer.findings)) {
        changes.push({
          item_id: item.id,
          identifier: item.identifier,
          before,
          after: answer.findings,
          first_check: item.first_check,
        });
      }
    });
    remoteAnswers = { changes, items: items.length };
  }

  const state = await withTransaction(options.db, async (tx) => {
    // No wait for the WAL flush at commit: the batch is only trusted once the job's completion (a
    // later, synchronous commit) is durable, and WAL is flushed in order, so a crash can lose this
    // commit only together with that completion, and the queue then runs the batch again.
    await tx.query('SET LOCAL synchronous_commit = off');
    const batch = await timed('lock batch', () => getBatch(tx, run.id, options.batchNo, { lock: true }));
    const previous = batch?.sources[adapter.type];
    if (batch?.status !== 'queued' || previous?.status === 'done') {
      return null;
    }
    const scope = scopeFor(adapter, run, batch);
    let result: { changes: ItemChange[]; items: number; findings?: number } | undefined = remoteAnswers;
    if (!result) {
      const findings = await timed('active dataset', () => adapter.batchFindings!());
      if (!findings) {
        failure = DATASET_NOT_LOADED;
        result = { changes: [], items: 0, findings: 0 };
      } else if (!scopeHasItems(scope)) {
        // A source of the other item kind: nothing in this batch to ask it about.
        result = { changes: [], items: 0, findings: 0 };
      } else {
        result = await timed(`match+diff+snapshots ${adapter.type}`, () =>
          diffDatasetBatch(tx, { ...scope, sourceType: adapter.type, runId: run.id, findings }),
        );
      }
    }
    const diffStarted = performance.now();
    const events: (EventDraft & { itemId: string })[] = [];
    for (const change of result.changes) {
      for (const draft of diffFindings({
        source: adapter.type,
        before: change.before ?? [],
        after: change.after ?? [],
        firstCheck: change.first_check,
        organisationId: run.organisation_id,
      })) {
        events.push({ ...draft, itemId: change.item_id });
      }
    }
    addPhaseTime(options.timings, 'events from changes (JS)', performance.now() - diffStarted);
    const eventIds = await timed('insert events', () =>
      insertEvents(tx, {
        organisationId: run.organisation_id,
        runId: run.id,
        sourceType: adapter.type,
        events,
      }),
    );
    const inserted = eventIds.length;
    // Deliveries are queued in the same transaction: they exist exactly when the events do.
    await timed('notify', () =>
      notifyEvents({ db: tx, queue: options.queue, organisationId: run.organisation_id, eventIds }),
    );
    if (remoteAnswers) {
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
    await addRunEvents(tx, run.id, inserted);
    const next: BatchSourceState = {
      status: failure ? 'failed' : 'done',
      retryable: failure !== null && failure !== DATASET_NOT_LOADED,
      attempts: (previous?.attempts ?? 0) + 1,
      items: result.items - failedItems,
      findings: result.findings ?? (await countSnapshots(tx, { ...scope, sourceType: adapter.type })),
      events: (previous?.events ?? 0) + inserted,
      error: failure ? (failedItems > 1 ? `${failure}; объектов без ответа: ${failedItems}` : failure) : null,
      durationMs: Math.round(performance.now() - started),
    };
    await timed('batch state', () =>
      setBatchSourceState(tx, { runId: run.id, batchNo: options.batchNo, type: adapter.type }, next),
    );
    // In the batch's transaction: one commit per source and batch, not two.
    await timed('source answers', () =>
      recordSourceAnswers(tx, [
        {
          type: adapter.type,
          mode: 'batch',
          items: next.items,
          ok: next.status === 'done',
          durationMs: next.durationMs,
          error: next.error,
        },
      ]),
    );
    return next;
  });
  return (
    state ?? {
      status: 'done',
      retryable: false,
      attempts: 0,
      items: 0,
      findings: 0,
      events: 0,
      error: null,
      durationMs: 0,
    }
  );
}

/**
 * One batch job: every source in turn, each committed on its own. Sources that failed with a
 * retryable error make the job throw so the queue retries it (done sources are skipped then); on the
 * last attempt the batch is finished with those sources marked failed.
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
  const failed: SourceType[] = [];
  for (const adapter of createSourceAdapters({ ...options, organisationId: run.organisation_id })) {
    const previous = batch.sources[adapter.type];
    if (previous?.status === 'done' || (previous?.status === 'failed' && !previous.retryable)) {
      continue;
    }
    const state = await timed('source total (transaction incl. commit)', () =>
      runSourceOnBatch({ ...options, run, batchNo: batch.batch_no, adapter }),
    );
    if (state.status === 'failed' && state.retryable) {
      failed.push(adapter.type);
    }
  }
  if (failed.length > 0 && !options.lastAttempt) {
    throw new Error(`sources failed in batch ${batch.batch_no}: ${failed.join(', ')}`);
  }
  await timed('finish batch (last checked, progress)', () =>
    withTransaction(options.db, async (tx) => {
      await tx.query('SET LOCAL synchronous_commit = off'); // as in runSourceOnBatch
      const locked = await getBatch(tx, run.id, batch.batch_no, { lock: true });
      if (locked?.status !== 'queued') {
        return;
      }
      await finishBatch(tx, {
        runId: run.id,
        batchNo: batch.batch_no,
        organisationId: run.organisation_id,
        kind: batch.kind,
        identifierFrom: batch.identifier_from,
        identifierTo: batch.identifier_to,
        items: batch.items,
      });
    }),
  );
}
