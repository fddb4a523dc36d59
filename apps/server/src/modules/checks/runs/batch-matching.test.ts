import { describe, expect, it } from 'vitest';
import { buildTestApp, createSignedInUser } from '../../../testing/test-app.ts';
import { listBatchItems } from './batch-matching.queries.ts';

const { app } = await buildTestApp();

describe("a run batch's items", () => {
  it('are read from the identifier index alone (index-only: id, document type and status included), never the heap', async () => {
    const user = await createSignedInUser(app);
    // Passports in random order, as a bank's uploads add them: each item's row on a page of its own.
    await app.db.query(
      `INSERT INTO monitoring_items (organisation_id, kind, document_type, identifier, origin)
       SELECT $1, 'document', CASE WHEN g % 7 = 0 THEN 'inn' ELSE 'passport_rf' END,
              lpad((g * 7919 % 1000000)::text, 10, '0'), 'form'
         FROM generate_series(1, 3000) AS g`,
      [user.organisationId],
    );
    // Runs never update items: their pages are all-visible once vacuumed, as autovacuum leaves them.
    await app.db.query('VACUUM (ANALYZE) monitoring_items');
    const scope = {
      organisationId: user.organisationId,
      kind: 'document' as const,
      identifierFrom: '0000000000',
      identifierTo: '0000500000',
      kinds: ['vin', 'document'] as const,
      documentTypes: ['passport_rf'],
    };
    const client = await app.db.connect();
    try {
      await client.query('BEGIN');
      // The index is what is asked about, whatever the planner makes of a table this small.
      await client.query('SET LOCAL enable_seqscan = off');
      await client.query('SET LOCAL enable_bitmapscan = off');
      let plan = '';
      const explaining = {
        query: async (sql: string, params: unknown[]) => {
          const { rows } = await client.query(`EXPLAIN (ANALYZE, COSTS OFF) ${sql}`, params);
          plan = rows.map((row) => row['QUERY PLAN']).join('\n');
          return { rows: [] };
        },
      };
      await listBatchItems(explaining as never, scope);
      expect(plan).toContain('Index Only Scan using monitoring_items_sort_identifier_idx');
      expect(plan).toMatch(/Heap Fetches: 0\b/);
      const items = await listBatchItems(client, scope);
      expect(items.length).toBeGreaterThan(1000);
      expect(items.every((item) => item.document_type === 'passport_rf')).toBe(true);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });
});
