import { type Finding, SOURCE_TYPES } from '@pledgewatch/contract';
import type { Queryable } from '../../../db/pool.ts';
import { DATASET_NOT_LOADED, sourceAnswersFor } from './dataset-source.ts';
import {
  BATCH_IDENTIFIER_FROM,
  BATCH_IDENTIFIER_TO,
  type CheckItem,
  type ItemAnswer,
  type SourceAdapter,
} from './source-adapter.ts';
import { getActiveImport } from './sources.queries.ts';

/**
 * The registry's side of a finding: every registered pledge (one with a registration number) of
 * every organisation that holds the VIN, as the public registry shows it. `pledgeeOrganisationId`
 * lets the diff skip an organisation's own pledges; the key is the notification's number.
 */
const REGISTRY_PAYLOAD = `jsonb_build_object(
    'notice_number', p.registration_number,
    'status', p.status,
    'registered_at', p.created_on::text,
    'pledgor', p.pledgor_name,
    'pledgee', p.pledgee_name,
    'pledgee_inn', p.pledgee->>'inn',
    'contract', p.contract_number,
    'pledgeeOrganisationId', p.organisation_id::text)`;

const REGISTRY_JOIN = `JOIN pledge_vehicles v ON v.vin = b.identifier
    JOIN pledges p ON p.id = v.pledge_id AND p.registration_number IS NOT NULL`;

/**
 * The `pledges` source: the pledge registry of all organisations (issue 6), united with the
 * `pledges` dataset import when one is loaded (the demo's and any imported public data). With
 * neither a dataset nor a single registered pledge it has no data at all, and says so (a failed
 * answer, never «nothing found»), like any dataset source that was never loaded.
 */
export function createPledgesSource(deps: { db: Queryable }): SourceAdapter {
  let active: Promise<{ id: string; version: number } | undefined> | undefined;
  const activeImport = () => {
    active ??= getActiveImport(deps.db, 'pledges');
    return active;
  };

  let registry: Promise<boolean> | undefined;
  const registryHasData = () => {
    registry ??= deps.db
      .query<{ any: boolean }>(
        'SELECT EXISTS (SELECT 1 FROM pledges WHERE registration_number IS NOT NULL) AS any',
      )
      .then(({ rows }) => rows[0]!.any);
    return registry;
  };
  const hasData = async () => Boolean(await activeImport()) || (await registryHasData());

  async function checkBatch(items: CheckItem[]): Promise<ItemAnswer[]> {
    const current = await activeImport();
    if (!(await hasData())) {
      return items.map(() => ({ status: 'failed', findings: [], error: DATASET_NOT_LOADED }));
    }
    const { rows } = await deps.db.query<{ ord: number; key: string; payload: Record<string, unknown> }>(
      `WITH b AS (
         SELECT x.identifier, x.ord FROM unnest($1::text[]) WITH ORDINALITY AS x (identifier, ord)
       )
       SELECT b.ord::int AS ord, r.finding_key AS key, r.payload
         FROM b JOIN source_records r ON r.import_id = $2 AND r.identifier = b.identifier AND r.document_type = ''
       UNION ALL
       SELECT b.ord::int, p.registration_number, ${REGISTRY_PAYLOAD}
         FROM b ${REGISTRY_JOIN}
       ORDER BY 1, 2`,
      [items.map((item) => (item.kind === 'vin' ? item.identifier : '')), current?.id ?? null],
    );
    const findings: Finding[][] = items.map(() => []);
    for (const row of rows) {
      const list = findings[row.ord - 1]!;
      // One notice seen in both the dataset and the registry is one finding.
      if (!list.some((finding) => finding.key === row.key)) {
        list.push({ key: row.key, payload: row.payload });
      }
    }
    return findings.map((list) => ({ status: 'ok', findings: list }));
  }

  return {
    type: 'pledges',
    adapter: 'dataset',
    itemKinds: SOURCE_TYPES.pledges.itemKinds,
    answersFor: (item) => sourceAnswersFor('pledges', item),
    datasetVersion: async () => (await activeImport())?.version ?? null,
    check: async (item) => (await checkBatch([item]))[0]!,
    checkBatch,
    async batchFindings() {
      const current = await activeImport();
      if (!(await hasData())) {
        return null;
      }
      return {
        sql: (p) => `SELECT DISTINCT ON (item_id, key) item_id, key, payload FROM (
                       SELECT b.id AS item_id, r.finding_key AS key, r.payload, 0 AS pri
                         FROM batch_items b
                         JOIN source_records r
                           ON r.import_id = $${p}::uuid AND r.identifier = b.identifier AND r.document_type = b.document_type
                          AND r.identifier BETWEEN $${BATCH_IDENTIFIER_FROM} AND $${BATCH_IDENTIFIER_TO}
                       UNION ALL
                       SELECT b.id, p.registration_number, ${REGISTRY_PAYLOAD}, 1
                         FROM batch_items b ${REGISTRY_JOIN}
                        WHERE b.document_type = ''
                          AND v.vin BETWEEN $${BATCH_IDENTIFIER_FROM} AND $${BATCH_IDENTIFIER_TO}
                     ) f ORDER BY item_id, key, pri`,
        params: [current?.id ?? null],
      };
    },
  };
}
