import type { UploadPreviewRow } from '@pledgewatch/contract';
import type { Queryable } from '../../../db/pool.ts';
import {
  displayIdentifier,
  mergeSearchIndexes,
  reserveImportRange,
  takeImportRange,
} from '../../monitoring/index.ts';
import { fillLabelDictionary } from '../../statistics/index.ts';
import { itemsRowRules } from './items-row-rules.ts';
import type { UploadKindHandler } from './upload-kind.ts';

/** For the sorts of a million staged rows (validation summary, import); this transaction only. */
const IMPORT_WORK_MEM = '256MB';

/** A portfolio file: one VIN or one pledgor document per row (`/monitoring/upload`, tab `table`). */
export const itemsUpload: UploadKindHandler = {
  ...itemsRowRules,
  rowRulesModule: { url: new URL('./items-row-rules.ts', import.meta.url).href, exportName: 'itemsRowRules' },
  stagingTable: 'upload_item_rows',
  stagingColumns: [
    'kind',
    'document_type',
    'identifier',
    'label',
    'contract_number',
    'pledgor_name',
    'warning',
  ],

  summaryOnlyCounts: true,

  async summarise(db, { uploadId, organisationId }) {
    // Distinct identities by hashing (in memory at this work_mem) rather than a sort with a window.
    await db.query(`SET LOCAL work_mem = '${IMPORT_WORK_MEM}'`);
    const { rows } = await db.query<{ staged: number; accepted: number; restored: number }>(
      `WITH s AS (
         SELECT kind, document_type, identifier FROM upload_item_rows WHERE upload_id = $1
          GROUP BY kind, document_type, identifier
       )
       SELECT (SELECT count(*) FROM upload_item_rows WHERE upload_id = $1)::int AS staged,
              count(*) FILTER (WHERE m.id IS NULL)::int AS accepted,
              count(*) FILTER (WHERE m.status = 'archived')::int AS restored
         FROM s LEFT JOIN monitoring_items m
           ON m.organisation_id = $2 AND m.kind = s.kind
          AND coalesce(m.document_type, '') = coalesce(s.document_type, '') AND m.identifier = s.identifier`,
      [uploadId, organisationId],
    );
    const { staged, accepted, restored } = rows[0]!;
    return { staged, accepted, restored, duplicates: staged - accepted - restored };
  },

  async preview(db, uploadId, limit) {
    const { rows } = await db.query<{
      row_number: number;
      kind: 'vin' | 'document';
      document_type: string | null;
      identifier: string;
      label: string | null;
      contract_number: string | null;
      pledgor_name: string | null;
      warning: string | null;
    }>(
      `SELECT row_number, kind, document_type, identifier, label, contract_number, pledgor_name, warning
         FROM upload_item_rows WHERE upload_id = $1 ORDER BY row_number LIMIT $2`,
      [uploadId, limit],
    );
    return rows.map(
      (row): UploadPreviewRow => ({
        rowNumber: row.row_number,
        kind: row.kind,
        documentType: row.document_type as UploadPreviewRow['documentType'],
        identifier: row.identifier,
        displayIdentifier: displayIdentifier(row.document_type, row.identifier),
        label: row.label,
        contractNumber: row.contract_number,
        pledgorName: row.pledgor_name,
        warning: row.warning,
      }),
    );
  },

  async completeImport(db, { organisationId }) {
    // The import's new labels, noted in its transaction (0033, 0114_label_dictionary_pending.sql).
    await fillLabelDictionary(db, organisationId);
  },

  async afterImport(db) {
    // The last of the import's search entries (up to 4 MB, 0040) wait in the trigram index's pending list.
    await mergeSearchIndexes(db);
  },

  async beforeImport(db, { uploadId, organisationId }) {
    // The rows' place in the list's creation order, which the list's walks go around until they commit.
    await reserveImportRange(db, { uploadId, organisationId });
  },

  async importStaged(tx: Queryable, { uploadId, organisationId, userId }) {
    // The first row of each identity wins; an archived item comes back, an active one is a duplicate.
    // Rows go in in identity order (the sort of DISTINCT ON), so the identity key fills page by page;
    // the sort of a million staged rows fits in memory instead of spilling to disk.
    await tx.query(`SET LOCAL work_mem = '${IMPORT_WORK_MEM}'`);
    // The statistics label dictionary is filled by completeImport, after the commit.
    await tx.query(`SET LOCAL pledgewatch.defer_label_dictionary = 'on'`);
    const range = await takeImportRange(tx, uploadId);
    const { rows } = await tx.query<{ staged: number; inserted: number; restored: number }>(
      `WITH src AS (
         SELECT DISTINCT ON (kind, document_type, identifier)
                kind, document_type, identifier, label, contract_number, pledgor_name
           FROM upload_item_rows WHERE upload_id = $1
          ORDER BY kind, document_type, identifier, row_number
       ), ins AS (
         INSERT INTO monitoring_items AS m
           (id, created_at, organisation_id, kind, document_type, identifier, label, contract_number, pledgor_name,
            origin, upload_id, created_by)
         -- The reserved range: its time, and ids in the order of insertion.
         SELECT pw_import_range_id($5, row_number() OVER () - 1), $4::timestamptz, $2, kind, document_type, identifier, label,
                contract_number, pledgor_name, 'upload', $1, $3 FROM src
         ON CONFLICT (organisation_id, kind, coalesce(document_type, ''), identifier) DO UPDATE
           SET status = 'active', archived_at = NULL, updated_at = now(),
               label = coalesce(excluded.label, m.label),
               contract_number = coalesce(excluded.contract_number, m.contract_number),
               pledgor_name = coalesce(excluded.pledgor_name, m.pledgor_name)
           WHERE m.status = 'archived'
         RETURNING (xmax = 0) AS inserted
       )
       SELECT (SELECT count(*) FROM upload_item_rows WHERE upload_id = $1)::int AS staged,
              count(*) FILTER (WHERE inserted)::int AS inserted,
              count(*) FILTER (WHERE NOT inserted)::int AS restored
         FROM ins`,
      [uploadId, organisationId, userId, range.createdAt, range.firstId],
    );
    const { staged, inserted, restored } = rows[0]!;
    return { inserted, restored, duplicates: staged - inserted - restored };
  },
};
