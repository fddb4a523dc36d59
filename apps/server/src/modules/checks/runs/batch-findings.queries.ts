// SQL that writes what a batch found: finding snapshots and monitoring events.
import type { Finding, SourceType } from '@pledgewatch/contract';
import type { Queryable } from '../../../db/pool.ts';
import type { BatchScope } from './batch-matching.queries.ts';
import type { EventDraft } from './findings-diff.ts';

export async function getSnapshots(
  db: Queryable,
  sourceType: SourceType,
  itemIds: string[],
): Promise<Map<string, Finding[]>> {
  const { rows } = await db.query<{ item_id: string; findings: Finding[] }>(
    'SELECT item_id, findings FROM finding_snapshots WHERE source_type = $1 AND item_id = ANY($2::uuid[])',
    [sourceType, itemIds],
  );
  return new Map(rows.map((row) => [row.item_id, row.findings]));
}

const SNAPSHOT_HASH = `(SELECT md5(string_agg((e->>'key') || ':' || (e->'payload')::text, '|' ORDER BY e->>'key'))
                         FROM jsonb_array_elements(x.findings) e)`;

/**
 * Writes the new findings of changed items (remote sources; dataset sources write theirs in
 * diffDatasetBatch): rows for items with findings, none for items without.
 */
export async function writeSnapshots(
  db: Queryable,
  input: {
    organisationId: string;
    sourceType: SourceType;
    runId: string;
    items: { itemId: string; identifier: string | null; findings: Finding[] }[];
  },
): Promise<void> {
  if (input.items.length > 0) {
    // These snapshots are no longer what a dataset match of the type left (findUnchangedSources).
    await db.query('DELETE FROM check_source_fingerprints WHERE organisation_id = $1 AND source_type = $2', [
      input.organisationId,
      input.sourceType,
    ]);
  }
  const present = input.items.filter((item) => item.findings.length > 0);
  const gone = input.items.filter((item) => item.findings.length === 0).map((item) => item.itemId);
  if (present.length > 0) {
    await db.query(
      `INSERT INTO finding_snapshots (item_id, source_type, organisation_id, identifier, findings, hash, run_id)
       SELECT x.item_id, $2, $1, x.identifier, x.findings, ${SNAPSHOT_HASH}, $3
         FROM jsonb_to_recordset($4::jsonb) AS x(item_id uuid, identifier text, findings jsonb)
       ON CONFLICT (item_id, source_type) DO UPDATE
         SET identifier = EXCLUDED.identifier, findings = EXCLUDED.findings, hash = EXCLUDED.hash,
             run_id = EXCLUDED.run_id, updated_at = now()`,
      [
        input.organisationId,
        input.sourceType,
        input.runId,
        JSON.stringify(
          present.map((item) => ({
            item_id: item.itemId,
            identifier: item.identifier,
            findings: item.findings,
          })),
        ),
      ],
    );
  }
  if (gone.length > 0) {
    await db.query('DELETE FROM finding_snapshots WHERE source_type = $1 AND item_id = ANY($2::uuid[])', [
      input.sourceType,
      gone,
    ]);
  }
}

/** Items of the batch that have findings of the source (after its snapshots were written). */
export async function countSnapshots(
  db: Queryable,
  scope: BatchScope & { sourceType: SourceType },
): Promise<number> {
  const { rows } = await db.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM finding_snapshots s JOIN monitoring_items i ON i.id = s.item_id
      WHERE s.organisation_id = $1 AND s.source_type = $2 AND s.identifier BETWEEN $3 AND $4 AND i.kind = $5`,
    [scope.organisationId, scope.sourceType, scope.identifierFrom, scope.identifierTo, scope.kind],
  );
  return rows[0]!.count;
}

/**
 * Inserts the batch's events of every source in one statement; rows that a previous attempt of the
 * same batch already wrote are skipped. Returns the inserted ones.
 */
export async function insertEvents(
  db: Queryable,
  input: {
    organisationId: string;
    runId: string;
    events: (EventDraft & { itemId: string; sourceType: SourceType })[];
  },
): Promise<{ id: string; source_type: SourceType }[]> {
  if (input.events.length === 0) {
    return [];
  }
  const { rows } = await db.query<{ id: string; source_type: SourceType }>(
    `INSERT INTO monitoring_events (organisation_id, item_id, run_id, source_type, event_type, severity,
                                    finding_key, before, after, first_check, demo)
     SELECT $1, x.item_id, $2, x.source, x.type, x.severity, x.key, nullif(x.before, 'null'::jsonb),
            nullif(x.after, 'null'::jsonb), x.first_check, x.demo
       FROM jsonb_to_recordset($3::jsonb)
         AS x(item_id uuid, source text, type text, severity text, key text, before jsonb, after jsonb,
              first_check boolean, demo boolean)
     ON CONFLICT (run_id, item_id, source_type, event_type, finding_key) DO NOTHING
     RETURNING id, source_type`,
    [
      input.organisationId,
      input.runId,
      JSON.stringify(
        input.events.map((event) => ({
          item_id: event.itemId,
          source: event.sourceType,
          type: event.type,
          severity: event.severity,
          key: event.findingKey,
          before: event.before,
          after: event.after,
          first_check: event.firstCheck,
          demo: event.demo,
        })),
      ),
    ],
  );
  return rows;
}
