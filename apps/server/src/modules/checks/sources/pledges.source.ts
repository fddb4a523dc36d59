import type { Queryable } from '../../../db/pool.ts';
import { createDatasetSource } from './dataset-source.ts';
import type { SourceAdapter } from './source-adapter.ts';

/**
 * The `pledges` source. Until the pledge registry exists it reads the `pledges` dataset import;
 * the registry replaces this one file (same adapter interface, its own `batchFindings` SQL over
 * the registered pledges of all organisations, with `pledgeeOrganisationId` in the payload so
 * that an organisation's own pledges raise no «other creditor» event).
 */
export function createPledgesSource(deps: { db: Queryable }): SourceAdapter {
  return createDatasetSource('pledges', deps);
}
