import { type FailedSource, SOURCE_TYPES, type SourceType } from '@pledgewatch/contract';
import type { Queryable } from '../../../db/pool.ts';

/**
 * The sources that failed during each run: a source whose batch ended `failed` (no answer after
 * every try) did not check those items — the run shows it as failed, never as clean. Reason: the
 * error of its last failed batch.
 */
export async function listRunFailedSources(
  db: Queryable,
  runIds: string[],
): Promise<Map<string, FailedSource[]>> {
  const result = new Map<string, FailedSource[]>();
  if (runIds.length === 0) {
    return result;
  }
  const { rows } = await db.query<{
    run_id: string;
    source_type: SourceType;
    batches_failed: number;
    items: number;
    reason: string | null;
  }>(
    `SELECT b.run_id, s.key AS source_type, count(*)::int AS batches_failed, sum(b.items)::int AS items,
            (array_agg(s.value->>'error' ORDER BY b.batch_no DESC))[1] AS reason
       FROM check_run_batches b, jsonb_each(b.sources) s
      WHERE b.run_id = ANY($1::uuid[]) AND s.value->>'status' = 'failed'
      GROUP BY b.run_id, s.key
      ORDER BY b.run_id, s.key`,
    [runIds],
  );
  for (const row of rows) {
    const list = result.get(row.run_id) ?? [];
    list.push({
      type: row.source_type,
      name: SOURCE_TYPES[row.source_type]?.name ?? row.source_type,
      batchesFailed: row.batches_failed,
      itemsNotChecked: row.items,
      reason: row.reason ?? 'Источник не ответил',
    });
    result.set(row.run_id, list);
  }
  return result;
}
