import { type Finding, SOURCE_TYPE_CODES, type SourceType } from '@pledgewatch/contract';
import type { AppConfig } from '../../../config/env.ts';
import type { Queryable } from '../../../db/pool.ts';
import { DATASET_PROVIDER, recordSourceCall } from '../../../lib/metrics.ts';
import { createPassportListSource } from '../passport-list/passport-source.ts';
import { createDatasetSource } from './dataset-source.ts';
import { createPledgesSource } from './pledges.source.ts';
import { createRemoteSource } from './remote-source.ts';
import type { CheckItem, DatasetSourceDeps, ItemAnswer, SourceAdapter } from './source-adapter.ts';
import { listActiveImports, listItemRecords, readInputVersions } from './sources.queries.ts';

/**
 * The adapter for a source type: a provider over HTTP when SOURCE_<TYPE>_PROVIDER (or only
 * SOURCE_<TYPE>_URL, our JSON protocol) is configured, else the dataset
 * in our database (for `pledges`, its own adapter, which marks the checking organisation's pledges;
 * for `passport`, the MVD list). Adapters are cheap: make one per check or batch.
 */
export function createSourceAdapter(
  type: SourceType,
  deps: DatasetSourceDeps & { config: Pick<AppConfig, 'remoteSources'>; organisationId?: string },
): SourceAdapter {
  const remote = deps.config.remoteSources[type];
  if (remote) {
    // Counts each call to its provider itself (with the budget), and its cache hits.
    return createRemoteSource(type, remote, { db: deps.db, remoteSources: deps.config.remoteSources });
  }
  const local =
    type === 'pledges'
      ? createPledgesSource(deps)
      : type === 'passport'
        ? createPassportListSource(deps)
        : createDatasetSource(type, deps);
  return countedCalls(local);
}

/**
 * Every call to a source in our database (a one-time check, a batch asked item by item) counted in
 * the metrics here, once for all of its kinds; a run's batch match (batchFindings) is counted by the run.
 */
function countedCalls(adapter: SourceAdapter): SourceAdapter {
  const counted = async <T extends ItemAnswer>(answer: () => Promise<T[]>): Promise<T[]> => {
    const started = performance.now();
    const answers = await answer();
    const failed = answers.filter((one) => one.status === 'failed').length;
    recordSourceCall(
      { source: adapter.type, provider: DATASET_PROVIDER },
      { answered: answers.length - failed, failed, seconds: (performance.now() - started) / 1000 },
    );
    return answers;
  };
  return {
    ...adapter,
    check: async (item) => (await counted(async () => [await adapter.check(item)]))[0]!,
    checkBatch: (items) => counted(() => adapter.checkBatch(items)),
  };
}

export function createSourceAdapters(deps: {
  db: Queryable;
  config: Pick<AppConfig, 'remoteSources'>;
  /** The checking organisation: the `pledges` source marks its own pledges. */
  organisationId?: string;
}): SourceAdapter[] {
  // The dataset sources' active imports in one query for all of them, read when the first needs it.
  let imports: ReturnType<typeof listActiveImports> | undefined;
  const activeImports = () => {
    imports ??= listActiveImports(deps.db);
    return imports;
  };
  // The input versions (migration 0041) in one query for all of them, read when the first needs them.
  let versions: ReturnType<typeof readInputVersions> | undefined;
  const inputVersions = () => {
    versions ??= readInputVersions(deps.db);
    return versions;
  };
  // A single item's records in all dataset sources at once (a one-time check), read when the first asks.
  // `passport` is the MVD list in a table of its own (passport-list/), not in source_records.
  const dataset = (type: SourceType) =>
    type !== 'pledges' && type !== 'passport' && !deps.config.remoteSources[type];
  const records = new Map<string, Promise<Map<string, Finding[]>>>();
  const itemRecords = (item: CheckItem) => {
    const key = `${item.documentType ?? ''}/${item.identifier}`;
    let found = records.get(key);
    if (!found) {
      found = activeImports().then((imports) =>
        listItemRecords(
          deps.db,
          [...imports].filter(([type]) => dataset(type)).map(([, active]) => active.id),
          item,
        ),
      );
      records.set(key, found);
    }
    return found;
  };
  return SOURCE_TYPE_CODES.map((type) =>
    createSourceAdapter(type, { ...deps, activeImports, itemRecords, inputVersions }),
  );
}
