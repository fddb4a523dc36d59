// The validation's writing step: the checked rows' lines (upload-row-checks.ts, in the reader thread)
// streamed into the staging and errors COPYs, with progress, and a cancel looked for all along.
import type { CopyWriter } from './copy-writer.ts';
import type { CheckedRowSource } from './reader/open-row-source.ts';
import type { PipelineContext } from './upload-header.ts';
import { type CheckedRows, SKIPPED_ROWS_SHOWN } from './upload-row-checks.ts';
import { getUpload, updateUpload } from './uploads.queries.ts';

/** Rows between two progress updates of the upload row. */
export const PROGRESS_EVERY = 5000;
/** Longest time between two looks at the upload's status while validating (a cancel stops the loop). */
const CANCEL_CHECK_MS = 500;

/** The upload left «validating» under the loop (cancelled): stop, keep nothing. */
export class ValidationStopped extends Error {}

export interface RowCounts {
  total: number;
  rejected: number;
  staged: number;
  skipped: number;
  skippedRows: { rowNumber: number; text: string }[];
}

/**
 * Streams the checked rows into the staging and errors COPYs, with progress every PROGRESS_EVERY
 * rows. Progress is written only while the upload is still validating, and the status is looked at
 * between two progress steps too: a cancel stops the loop within CANCEL_CHECK_MS (and a batch).
 */
export async function stageRows(input: {
  db: PipelineContext['db'];
  uploadId: string;
  source: Pick<CheckedRowSource, 'bytesRead' | 'totalBytes'>;
  checked: AsyncIterable<CheckedRows>;
  staging: CopyWriter;
  errors: CopyWriter;
}): Promise<RowCounts> {
  const { db, uploadId, source, staging, errors } = input;
  const counts: RowCounts = { total: 0, rejected: 0, staged: 0, skipped: 0, skippedRows: [] };
  let lookedAt = performance.now();
  const report = async () => {
    lookedAt = performance.now();
    const percent = Math.min(99, Math.floor((source.bytesRead() / Math.max(1, source.totalBytes)) * 100));
    const still = await updateUpload(
      db,
      uploadId,
      { rows_processed: counts.total },
      { details: { percent }, fromStatuses: ['validating'] },
    );
    if (!still) {
      throw new ValidationStopped();
    }
  };
  const lookAtStatus = async () => {
    lookedAt = performance.now();
    if ((await getUpload(db, uploadId))?.status !== 'validating') {
      throw new ValidationStopped();
    }
  };
  for await (const batch of input.checked) {
    const before = counts.total;
    counts.total += batch.total;
    counts.staged += batch.staged;
    counts.rejected += batch.rejected;
    counts.skipped += batch.skipped;
    counts.skippedRows.push(...batch.skippedRows.slice(0, SKIPPED_ROWS_SHOWN - counts.skippedRows.length));
    const stagingFull = batch.staging ? staging.writeText(batch.staging) : null;
    const errorsFull = batch.errors ? errors.writeText(batch.errors) : null;
    await stagingFull;
    await errorsFull;
    if (Math.floor(counts.total / PROGRESS_EVERY) > Math.floor(before / PROGRESS_EVERY)) {
      await report();
    } else if (performance.now() - lookedAt > CANCEL_CHECK_MS) {
      await lookAtStatus();
    }
  }
  await staging.finish();
  await errors.finish();
  return counts;
}
