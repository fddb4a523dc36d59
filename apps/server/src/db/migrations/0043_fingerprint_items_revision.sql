-- A repeated run hashed each batch's items (~1 s a million) to know they had not changed since the
-- range's last match. A fingerprint now also keeps the items' revision (0036: the sum of
-- monitoring_item_revisions' marks, read in the match's own statement): while the organisation's
-- revision is still that one, no item was added, removed or changed since, and the hash is not
-- needed (issue #15).
ALTER TABLE check_source_fingerprints ADD COLUMN items_revision numeric;

-- A match reads an item's document type too: a change of it is a change of the list's revision.
DROP TRIGGER monitoring_item_revisions_update ON monitoring_items;
CREATE TRIGGER monitoring_item_revisions_update
  AFTER UPDATE OF organisation_id, kind, status, identifier, document_type, label, contract_number, created_at
  ON monitoring_items
  FOR EACH ROW WHEN (OLD.organisation_id IS DISTINCT FROM NEW.organisation_id OR OLD.kind IS DISTINCT FROM NEW.kind
                     OR OLD.status IS DISTINCT FROM NEW.status OR OLD.identifier IS DISTINCT FROM NEW.identifier
                     OR OLD.document_type IS DISTINCT FROM NEW.document_type
                     OR OLD.label IS DISTINCT FROM NEW.label
                     OR OLD.contract_number IS DISTINCT FROM NEW.contract_number
                     OR OLD.created_at IS DISTINCT FROM NEW.created_at)
  EXECUTE FUNCTION monitoring_item_revisions_updated();
