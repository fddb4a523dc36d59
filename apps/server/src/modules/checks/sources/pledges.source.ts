import type { Finding } from '@pledgewatch/contract';
import { DATASET_NOT_LOADED, openDatasetSource, readInputVersion } from './dataset-source.ts';
import {
  BATCH_IDENTIFIER_FROM,
  BATCH_IDENTIFIER_TO,
  type CheckItem,
  type DatasetSourceDeps,
  type SingleAnswer,
  type SourceAdapter,
} from './source-adapter.ts';

/**
 * A tenant's registered pledge as another organisation may see it: only what a public pledge registry
 * shows — the notice number, status, date and the pledgee's name as entered — and `verified: false`
 * («не подтверждено реестром»): a registration entered by a tenant is its word, not the registry's,
 * until the registry source (the `pledges` dataset) holds the same notice for the VIN. Never the
 * pledgor, the contract or any id of the organisation (docs/pledges.md, docs/security.md).
 */
const TENANT_PAYLOAD = `jsonb_build_object(
    'notice_number', p.registration_number,
    'status', p.status,
    'registered_at', p.created_on::text,
    'pledgee', p.pledgee_name,
    'verified', false)`;

/**
 * `own: true` marks the checking organisation's own pledge (its own data, so the diff raises nothing
 * for it); it is relative to the checker and never names another organisation.
 */
const OWN = `'{"own": true}'::jsonb`;

/**
 * The findings of VIN items `b(ref, identifier)` (`$org` the checking organisation, `$import` the
 * active dataset): the registry source's records (the dataset: confirmed, shown as it has them) win
 * over tenants' registrations of the same notice; of those, the checker's own comes first.
 */
const findingsSql = (org: string, importId: string, range = '') => `
  SELECT DISTINCT ON (ref, key) ref, key, payload FROM (
    SELECT b.ref, r.finding_key AS key,
           CASE WHEN EXISTS (
                  SELECT 1 FROM pledge_vehicles ov
                    JOIN pledges op ON op.id = ov.pledge_id AND op.registration_number = r.finding_key
                   WHERE ov.organisation_id = ${org} AND ov.vin = b.identifier)
                THEN r.payload || ${OWN} ELSE r.payload END AS payload,
           0 AS pri
      FROM b JOIN source_records r ON r.import_id = ${importId} AND r.identifier = b.identifier AND r.document_type = ''
           ${range && `AND r.identifier ${range}`}
    UNION ALL
    SELECT b.ref, p.registration_number,
           CASE WHEN p.organisation_id = ${org} THEN ${TENANT_PAYLOAD} || ${OWN} ELSE ${TENANT_PAYLOAD} END,
           CASE WHEN p.organisation_id = ${org} THEN 1 ELSE 2 END
      FROM b JOIN pledge_vehicles v ON v.vin = b.identifier ${range && `AND v.vin ${range}`}
      JOIN pledges p ON p.id = v.pledge_id AND p.registration_number IS NOT NULL
  ) f ORDER BY ref, key, pri`;

/**
 * The `pledges` source: the registry source (the `pledges` dataset import, fed by platform staff from
 * the public registry; the demo's too) united with the registrations tenants entered in their pledge
 * registries (issue 6), which stay unverified until the dataset confirms them. With neither a dataset
 * nor a single registered pledge it has no data at all, and says so (a failed answer, never «nothing
 * found»), like any dataset source that was never loaded. `organisationId` is the checking
 * organisation (runs and one-time checks pass it), so that its own pledges are marked `own`.
 */
export function createPledgesSource(deps: DatasetSourceDeps & { organisationId?: string }): SourceAdapter {
  const { activeImport, common } = openDatasetSource('pledges', deps);

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

  async function checkBatch(items: CheckItem[]): Promise<SingleAnswer[]> {
    const current = await activeImport();
    if (!(await hasData())) {
      return items.map(() => ({ status: 'failed', findings: [], error: DATASET_NOT_LOADED }));
    }
    const { rows } = await deps.db.query<{ ord: number; key: string; payload: Record<string, unknown> }>(
      `WITH b AS (
         SELECT x.ord::int AS ref, x.identifier FROM unnest($1::text[]) WITH ORDINALITY AS x (identifier, ord)
       )
       SELECT ref AS ord, key, payload FROM (${findingsSql('$3::uuid', '$2::uuid')}) found ORDER BY 1, 2`,
      [
        items.map((item) => (item.kind === 'vin' ? item.identifier : '')),
        current?.id ?? null,
        deps.organisationId ?? null,
      ],
    );
    const findings: Finding[][] = items.map(() => []);
    for (const row of rows) {
      findings[row.ord - 1]!.push({ key: row.key, payload: row.payload });
    }
    return findings.map((list) => ({ status: 'ok', findings: list }));
  }

  return {
    ...common,
    check: async (item) => (await checkBatch([item]))[0]!,
    checkBatch,
    async batchFindings() {
      // Read before the match: a version raised meanwhile only makes the next batch match again.
      const versions = await readInputVersion(deps, ['records:pledges', 'pledge_registry']);
      const current = await activeImport();
      if (!(await hasData())) {
        return null;
      }
      return {
        // The registry's rows of every tenant and the organisation's own (`own`) are in `pledge_registry`.
        inputVersion: versions && `import=${current?.id ?? 'none'} ${versions}`,
        sql: (p) =>
          // The batch's items are all VINs (the source's only item kind). No filter on them: one
          // would make the planner take the batch for a few dozen items and probe the records item
          // by item instead of reading the batch's range of them once (23 ms a 10,000-item batch, not 8).
          `SELECT ref AS item_id, key, payload FROM (
             WITH b AS (SELECT id AS ref, identifier FROM batch_items)
             ${findingsSql(`$${p + 1}::uuid`, `$${p}::uuid`, `BETWEEN $${BATCH_IDENTIFIER_FROM} AND $${BATCH_IDENTIFIER_TO}`)}
           ) found`,
        params: [current?.id ?? null, deps.organisationId ?? null],
      };
    },
  };
}
