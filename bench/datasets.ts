/** Dataset versions seeded in bulk for the benchmarks that run checks (checks, load). */
import { SOURCE_TYPES, type SourceType } from '@pledgewatch/contract';
import type pg from 'pg';
import { withTransaction } from '../apps/server/src/db/pool.ts';
import { createListTableFrom } from '../apps/server/src/modules/checks/passport-list/passport-list.queries.ts';
import { deleteInactiveRecords } from '../apps/server/src/modules/checks/sources/sources.queries.ts';
import { importDatasetIn } from '../apps/server/src/modules/checks/sources/sources.service.ts';

/** A source's records: `records` in all, of which every `matchEvery`-th portfolio item is the subject (0: none). */
export interface BenchDataset {
  type: SourceType;
  records: number;
  matchEvery: number;
}

/**
 * A new active version of a source's dataset in one transaction, as an import: first the records
 * about the portfolio's items (`itemIdentifier(n)`, the SQL of the n-th item's VIN or document
 * number, n from 1 to `items`), then records about other vehicles or people.
 */
export async function seedDatasetVersion(
  db: pg.Pool,
  spec: BenchDataset,
  portfolio: { items: number; itemIdentifier: (n: string) => string },
): Promise<void> {
  const document = SOURCE_TYPES[spec.type].itemKinds.includes('document');
  const matching = spec.matchEvery ? Math.floor(portfolio.items / spec.matchEvery) : 0;
  await withTransaction(db, async (tx) => {
    const id = await importDatasetIn(tx, { type: spec.type, fileName: `bench-${spec.type}`, records: [] });
    // Named as an import names it, so that only this type's input version is raised (migration 0041).
    await tx.query(`SELECT set_config('pledgewatch.source_records_type', $1, true)`, [spec.type]);
    await tx.query(
      `INSERT INTO source_records (import_id, document_type, identifier, finding_key, payload)
       SELECT $1, $2, CASE WHEN g <= $3 THEN ${portfolio.itemIdentifier('g * $4')} ELSE $5 || lpad(g::text, 10, '0') END,
              $6 || g, jsonb_build_object('record_id', $6 || g, 'status', 'active', 'date', '2025-01-01', 'pledgee', 'Банк')
         FROM generate_series(1, $7::int) g`,
      [
        id,
        document ? 'passport_rf' : '',
        matching,
        spec.matchEvery || 1,
        document ? '' : 'XTZ',
        `${spec.type}-`,
        spec.records,
      ],
    );
    await tx.query('UPDATE source_imports SET records_total = $2 WHERE id = $1', [id, spec.records]);
    if (spec.type === 'passport') {
      // A run's batch reads the MVD list from its version's own table (0073), not source_records.
      await createListTableFrom(tx, id, []);
    }
  });
  await withTransaction(db, (tx) => deleteInactiveRecords(tx, spec.type));
}
