import { type Finding, SOURCE_TYPES, type SourceType } from '@pledgewatch/contract';
import {
  type ActiveImport,
  BATCH_IDENTIFIER_FROM,
  BATCH_IDENTIFIER_TO,
  type CheckItem,
  type DatasetSourceDeps,
  type SingleAnswer,
  type SourceAdapter,
} from './source-adapter.ts';
import { getActiveImport, readInputVersions } from './sources.queries.ts';

export const DATASET_NOT_LOADED = 'Набор данных источника не загружен';

export function sourceAnswersFor(type: SourceType, item: Pick<CheckItem, 'kind' | 'documentType'>): boolean {
  const info = SOURCE_TYPES[type];
  if (!info.itemKinds.includes(item.kind)) {
    return false;
  }
  return item.kind !== 'document' || !info.documentTypes || info.documentTypes.includes(item.documentType!);
}

/** The type's active import: from the adapters' shared read when there is one, else its own query. */
export function readActiveImport(type: SourceType, deps: DatasetSourceDeps): Promise<ActiveImport> {
  return deps.activeImports
    ? deps.activeImports().then((imports) => imports.get(type))
    : getActiveImport(deps.db, type);
}

/**
 * The named input versions (migration 0041) as one value, from the adapters' shared read when there
 * is one; null when one is unknown (a source type without a version row never skips a match).
 */
export async function readInputVersion(deps: DatasetSourceDeps, names: string[]): Promise<string | null> {
  const versions = await (deps.inputVersions ? deps.inputVersions() : readInputVersions(deps.db));
  const parts = names.map((name) => versions.get(name) && `${name}=${versions.get(name)}`);
  return parts.every(Boolean) ? parts.join(' ') : null;
}

/**
 * How every dataset adapter opens: its active import, read once (one adapter instance serves one
 * check or one batch), and the fields that follow from the type and that import.
 */
export function openDatasetSource(type: SourceType, deps: DatasetSourceDeps) {
  let active: Promise<ActiveImport> | undefined;
  const activeImport = () => {
    active ??= readActiveImport(type, deps);
    return active;
  };
  return {
    activeImport,
    /** The next `activeImport()` reads it again from the database, past the adapters' shared read. */
    rereadActiveImport(): void {
      active = readActiveImport(type, { db: deps.db });
    },
    common: {
      type,
      adapter: 'dataset',
      itemKinds: SOURCE_TYPES[type].itemKinds,
      answersFor: (item) => sourceAnswersFor(type, item),
      datasetVersion: async () => (await activeImport())?.version ?? null,
    } satisfies Omit<SourceAdapter, 'check' | 'checkBatch'>,
  };
}

/**
 * A source whose records live in our database (`source_records` of the type's active import).
 * A run matches a whole batch in one join; a single item is one indexed lookup.
 */
export function createDatasetSource(type: SourceType, deps: DatasetSourceDeps): SourceAdapter {
  const { activeImport, common } = openDatasetSource(type, deps);

  async function checkBatch(items: CheckItem[]): Promise<SingleAnswer[]> {
    const current = await activeImport();
    if (!current) {
      return items.map(() => ({ status: 'failed', findings: [], error: DATASET_NOT_LOADED }));
    }
    const { rows } = await deps.db.query<{
      ord: number;
      finding_key: string;
      payload: Record<string, unknown>;
    }>(
      `SELECT x.ord::int AS ord, r.finding_key, r.payload
         FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS x(identifier, document_type, ord)
         JOIN source_records r ON r.import_id = $1 AND r.identifier = x.identifier AND r.document_type = x.document_type
        ORDER BY x.ord, r.finding_key`,
      [current.id, items.map((item) => item.identifier), items.map((item) => item.documentType ?? '')],
    );
    const findings: Finding[][] = items.map(() => []);
    for (const row of rows) {
      findings[row.ord - 1]!.push({ key: row.finding_key, payload: row.payload });
    }
    return findings.map((list) => ({ status: 'ok', findings: list }));
  }

  async function checkOne(item: CheckItem): Promise<SingleAnswer> {
    if (!deps.itemRecords) {
      return (await checkBatch([item]))[0]!;
    }
    // The item's records of every dataset source come in one query; this source takes its import's.
    const [current, records] = await Promise.all([activeImport(), deps.itemRecords(item)]);
    return current
      ? { status: 'ok', findings: records.get(current.id) ?? [] }
      : { status: 'failed', findings: [], error: DATASET_NOT_LOADED };
  }

  return {
    ...common,
    check: checkOne,
    checkBatch,
    async batchFindings() {
      // Read before the match: a version raised meanwhile only makes the next batch match again.
      const versions = await readInputVersion(deps, [`records:${type}`]);
      const current = await activeImport();
      if (!current) {
        return null;
      }
      return {
        inputVersion: versions && `import=${current.id} ${versions}`,
        sql: (p) => `SELECT b.id AS item_id, r.finding_key AS key, r.payload
                       FROM batch_items b
                       JOIN source_records r
                         ON r.import_id = $${p} AND r.identifier = b.identifier AND r.document_type = b.document_type
                        -- The batch's range on this side too: the records are one range of the index.
                        AND r.identifier BETWEEN $${BATCH_IDENTIFIER_FROM} AND $${BATCH_IDENTIFIER_TO}`,
        params: [current.id],
      };
    },
  };
}
