-- Items search (issue #15): a frequent term whose matches sit far down the chosen sort order (all
-- "solaris" VINs start with Z94) is answered by sorting all its matches, ~0.2–0.4 s at a million
-- items. The server keeps that sorted stretch for the next pages and repeats, and must know when
-- it is out of date: the revision of an organisation's list, the sum of these rows' marks.
-- Writers only append (like monitoring_item_counts, 0002), so concurrent imports and edits never
-- wait for each other; a mark is visible exactly when its change commits. Marks come from a
-- sequence rather than counting one per change, so a sum read inside a transaction that then rolls
-- back is not simply reached again by the next change (the list is read outside transactions).
CREATE SEQUENCE monitoring_item_revision_marks;
CREATE TABLE monitoring_item_revisions (
  organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  marks numeric NOT NULL DEFAULT nextval('monitoring_item_revision_marks')
);
CREATE INDEX monitoring_item_revisions_org_idx ON monitoring_item_revisions (organisation_id);

-- Statement level: an import of a million rows adds one mark.
CREATE FUNCTION monitoring_item_revisions_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO monitoring_item_revisions (organisation_id) SELECT DISTINCT organisation_id FROM new_rows;
  RETURN NULL;
END $$;
CREATE TRIGGER monitoring_item_revisions_insert AFTER INSERT ON monitoring_items
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION monitoring_item_revisions_inserted();

-- Skips an organisation that is itself being deleted (its revisions go with it).
CREATE FUNCTION monitoring_item_revisions_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO monitoring_item_revisions (organisation_id)
  SELECT DISTINCT d.organisation_id FROM old_rows d
   WHERE EXISTS (SELECT 1 FROM organisations o WHERE o.id = d.organisation_id);
  RETURN NULL;
END $$;
CREATE TRIGGER monitoring_item_revisions_delete AFTER DELETE ON monitoring_items
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION monitoring_item_revisions_deleted();

-- Row level and only for what a list shows, filters, matches or sorts by: the checks engine's
-- last-checked updates do not pay for it (the last-check sort is never kept).
CREATE FUNCTION monitoring_item_revisions_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO monitoring_item_revisions (organisation_id) VALUES (NEW.organisation_id);
  IF OLD.organisation_id IS DISTINCT FROM NEW.organisation_id THEN
    INSERT INTO monitoring_item_revisions (organisation_id) VALUES (OLD.organisation_id);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER monitoring_item_revisions_update
  AFTER UPDATE OF organisation_id, kind, status, identifier, label, contract_number, created_at ON monitoring_items
  FOR EACH ROW WHEN (OLD.organisation_id IS DISTINCT FROM NEW.organisation_id OR OLD.kind IS DISTINCT FROM NEW.kind
                     OR OLD.status IS DISTINCT FROM NEW.status OR OLD.identifier IS DISTINCT FROM NEW.identifier
                     OR OLD.label IS DISTINCT FROM NEW.label
                     OR OLD.contract_number IS DISTINCT FROM NEW.contract_number
                     OR OLD.created_at IS DISTINCT FROM NEW.created_at)
  EXECUTE FUNCTION monitoring_item_revisions_updated();

-- Folds an organisation's rows into one; the sum, and so the revision, stays the same.
CREATE FUNCTION compact_monitoring_item_revisions(org uuid) RETURNS void LANGUAGE sql AS $$
  WITH gone AS (DELETE FROM monitoring_item_revisions WHERE organisation_id = org RETURNING marks)
  INSERT INTO monitoring_item_revisions (organisation_id, marks)
  SELECT org, sum(marks) FROM gone HAVING count(*) > 0;
$$;

