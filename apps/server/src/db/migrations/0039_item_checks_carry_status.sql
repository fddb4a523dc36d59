-- The list sorted by last check, default view (active items): its unranged half walked the index of
-- own stamps and joined monitoring_items for the status of every unranged item — after a run those
-- are the paused and archived ones (frozen stamps), 27,000 of a million in the load benchmark, none
-- of them shown: ~160 ms a page. The item's status now sits beside its own stamp, kept by the
-- trigger that already watched status changes, and leads the own-stamp index, so the walk reads
-- only items of the listed statuses.
ALTER TABLE monitoring_item_checks ADD COLUMN item_status text;
UPDATE monitoring_item_checks c SET item_status = i.status FROM monitoring_items i WHERE i.id = c.item_id;
ALTER TABLE monitoring_item_checks ALTER COLUMN item_status SET NOT NULL;

CREATE INDEX monitoring_item_checks_own_status_idx
  ON monitoring_item_checks (organisation_id, kind, item_status, last_checked_at, item_id)
  WHERE unranged_since IS NOT NULL;
DROP INDEX monitoring_item_checks_own_idx;
ALTER INDEX monitoring_item_checks_own_status_idx RENAME TO monitoring_item_checks_own_idx;

CREATE OR REPLACE FUNCTION monitoring_item_checks_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO monitoring_item_checks
    (item_id, organisation_id, kind, last_checked_at, identifier, unranged_since, item_status)
  SELECT id, organisation_id, kind, last_checked_at, identifier, now(), status FROM new_rows;
  RETURN NULL;
END $$;

-- Any status change is copied; an item leaving «active» also keeps the last check it had (later
-- batches do not check it): frozen as its own stamp. Coming back it stays unranged until a batch
-- checks it.
CREATE OR REPLACE FUNCTION monitoring_item_checks_status_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status = 'active' THEN
    UPDATE monitoring_item_checks
       SET last_checked_at = CASE WHEN unranged_since IS NULL THEN item_last_checked_at(NEW.id) ELSE last_checked_at END,
           unranged_since = coalesce(unranged_since, now()),
           item_status = NEW.status
     WHERE item_id = NEW.id;
  ELSE
    UPDATE monitoring_item_checks SET item_status = NEW.status WHERE item_id = NEW.id;
  END IF;
  RETURN NULL;
END $$;
DROP TRIGGER monitoring_item_checks_deactivate ON monitoring_items;
DROP FUNCTION monitoring_item_checks_deactivated();
CREATE TRIGGER monitoring_item_checks_status AFTER UPDATE OF status ON monitoring_items
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION monitoring_item_checks_status_changed();
