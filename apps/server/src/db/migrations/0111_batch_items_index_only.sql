-- A run's batch reads its items as a range of the identifier sort index (checks/runs/
-- batch-matching.queries.ts, batch_items: id, identifier, document_type, filtered by status). The
-- index held status but not document_type, so every item of the batch was a heap fetch: items are
-- added in any order, so 10,000 items were ~10,000 random pages, 10.6–12.7 ms of the 15–50 ms a
-- passport batch took at a million items (measured on PostgreSQL 18). With document_type INCLUDEd
-- the batch is an index-only scan (4.5 ms; runs never update items, so their pages stay all-visible
-- between uploads). Same key columns, same order and name: the items list's identifier sort keeps it.
CREATE INDEX monitoring_items_sort_identifier_covering_idx
  ON monitoring_items (organisation_id, kind, identifier, id) INCLUDE (status, document_type);
DROP INDEX monitoring_items_sort_identifier_idx;
ALTER INDEX monitoring_items_sort_identifier_covering_idx RENAME TO monitoring_items_sort_identifier_idx;
