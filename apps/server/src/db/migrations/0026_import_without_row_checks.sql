-- Portfolio import (issue #15): a foreign key is checked row by row, and a million-row import
-- paid three such checks per item (the item, its statistics label, its label's day row): ~1.5 s per
-- 200,000 rows each on the 2-core machine. organisation_id of these tables is written only by the
-- server, from the session's own organisation; ON DELETE CASCADE is kept by the trigger below, as
-- 0002 does for upload_id and created_by. (No application path deletes organisations today.)
ALTER TABLE monitoring_items DROP CONSTRAINT monitoring_items_organisation_id_fkey;
ALTER TABLE statistics_labels DROP CONSTRAINT statistics_labels_organisation_id_fkey;
ALTER TABLE statistics_label_item_days DROP CONSTRAINT statistics_label_item_days_organisation_id_fkey;

-- The organisation's row is gone when this runs, so the items' own delete triggers skip the
-- per-label bookkeeping (they check that the organisation still exists), as under the cascade.
CREATE FUNCTION organisations_forget_items() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM monitoring_items WHERE organisation_id = OLD.id;
  DELETE FROM statistics_label_item_days WHERE organisation_id = OLD.id;
  DELETE FROM statistics_labels WHERE organisation_id = OLD.id;
  RETURN NULL;
END $$;
CREATE TRIGGER organisations_forget_items AFTER DELETE ON organisations
  FOR EACH ROW EXECUTE FUNCTION organisations_forget_items();
