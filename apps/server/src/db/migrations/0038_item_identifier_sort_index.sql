-- Items list sorted by identifier (issue #15): the list orders by (identifier, id), but the identity
-- key's columns are (organisation_id, kind, identifier, coalesce(document_type, '')) — its id was
-- only INCLUDEd (0037), so it gives no order on id and the planner walked the cross-organisation
-- monitoring_items_identifier_idx instead, filtering away other organisations' rows and the
-- organisation's documents (digits sort before every VIN): 0.1–0.3 s per page at a million items.
-- The sort gets its own index whose columns are exactly the ORDER BY, like the other sorts (0037).
-- The tie-break by id stays (documents of different types may share a number), so results are
-- unchanged.
CREATE INDEX monitoring_items_sort_identifier_idx
  ON monitoring_items (organisation_id, kind, identifier, id) INCLUDE (status);

-- The identity key serves uniqueness and ON CONFLICT only again: without the INCLUDEd columns it is
-- smaller, which pays back part of the new index's cost on uploads. Same key columns and
-- uniqueness, same name (ON CONFLICT infers it from the columns).
CREATE UNIQUE INDEX monitoring_items_identity_lean_key
  ON monitoring_items (organisation_id, kind, identifier, coalesce(document_type, ''));
DROP INDEX monitoring_items_identity_key;
ALTER INDEX monitoring_items_identity_lean_key RENAME TO monitoring_items_identity_key;
