import type { Finding, ItemKind, SourceType } from '@pledgewatch/contract';
import type { DocumentType } from '@pledgewatch/identifiers';
import type { SourceProviderName } from '../../../config/source-providers.ts';
import type { Queryable } from '../../../db/pool.ts';

/** What a source is asked about: a portfolio item or the subject of a one-time check. */
export interface CheckItem {
  /** The monitoring item id; absent for one-time checks. */
  id?: string;
  kind: ItemKind;
  /** null for VINs. */
  documentType: DocumentType | null;
  /** Normalised VIN or document number. */
  identifier: string;
}

/**
 * One source's answer for one item. `failed` is never «nothing found». `deferred`: not asked, the
 * source's daily request limit is spent (a regular run leaves the item due for the next day).
 */
export type ItemAnswer =
  | { status: 'ok'; findings: Finding[]; fromCache?: boolean }
  | { status: 'failed'; findings: []; error: string }
  | { status: 'deferred'; findings: [] };

/**
 * The answer of a single check (one-time): it has no next day, so never `deferred`; a spent daily
 * limit is its failure, marked `notAsked` — ours, not the source's: no mark on the source's health.
 */
export type SingleAnswer =
  | Exclude<ItemAnswer, { status: 'deferred' | 'failed' }>
  | { status: 'failed'; findings: []; error: string; notAsked?: true };

/**
 * The set-based form of a dataset source, used by check runs: a SELECT yielding
 * `(item_id uuid, key text, payload jsonb)` for the rows of the `batch_items` CTE
 * (`id, identifier, document_type` with '' for VINs). Parameters continue from `firstParam`.
 * A batch is a range of identifiers, `$3` to `$4` (BATCH_IDENTIFIER_FROM/TO): repeating it as a
 * condition on the source's own table (`r.identifier BETWEEN $3 AND $4`) lets the batch read one
 * index range of records instead of one index probe per item.
 */
export const BATCH_IDENTIFIER_FROM = 3;
export const BATCH_IDENTIFIER_TO = 4;

export interface BatchFindingsSql {
  sql: (firstParam: number) => string;
  params: unknown[];
  /**
   * Everything besides the batch's items that the SELECT reads, as one comparable value (the active
   * import and the input versions, read before the match): a batch whose items and input version
   * equal those of the range's last match skips it (check_source_fingerprints, migration 0041).
   * null when a version is unknown: the match then always runs.
   */
  inputVersion: string | null;
}

/** One data source behind one interface, whatever stands behind it. */
export interface SourceAdapter {
  type: SourceType;
  adapter: 'dataset' | 'remote';
  /** The provider behind a remote source (SOURCE_<TYPE>_PROVIDER); absent for a dataset. */
  provider?: SourceProviderName;
  itemKinds: readonly ItemKind[];
  /**
   * Document types it is asked about when narrower than the source type's (a provider that searches
   * by INN / OGRN / OGRNIP only); absent: the type's own list.
   */
  documentTypes?: readonly DocumentType[];
  /** Whether the source answers for this item (kind and, for documents, the document type). */
  answersFor(item: Pick<CheckItem, 'kind' | 'documentType'>): boolean;
  /** Version of the dataset the answers come from; null for remote sources or no data yet. */
  datasetVersion(): Promise<number | null>;
  check(item: CheckItem): Promise<SingleAnswer>;
  /** One answer per item, in the order given. */
  checkBatch(items: CheckItem[]): Promise<ItemAnswer[]>;
  /** Present on dataset sources: lets a run match a whole batch in one query. */
  batchFindings?(): Promise<BatchFindingsSql | null>;
}

/** `demo`: the version is demonstration data (the passport list marks its findings with it). */
export type ActiveImport = { id: string; version: number; demo?: boolean } | undefined;

/** What a dataset source reads its records through; `activeImports` shares one read among adapters. */
export interface DatasetSourceDeps {
  db: Queryable;
  /** Every type's active import, read once for a set of adapters (createSourceAdapters). */
  activeImports?: () => Promise<Map<SourceType, { id: string; version: number; demo?: boolean }>>;
  /**
   * One item's records in every dataset source's active import, by import id, read once for a set of
   * adapters (createSourceAdapters): a one-time check's sources in one query instead of one each.
   */
  itemRecords?: (item: CheckItem) => Promise<Map<string, Finding[]>>;
  /** The input versions (check_input_versions), read once for a set of adapters (createSourceAdapters). */
  inputVersions?: () => Promise<Map<string, string>>;
}
