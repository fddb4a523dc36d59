-- A first run's writes (issue #15): each finding snapshot checked its organisation and its run, and
-- each event its organisation and its run, row by row (a trigger call and an index probe each,
-- ~2.7 µs: ~3.5 s of a million-item first run writing 523,636 snapshots and 190,303 events).
-- Both tables keep the row-level check of their item: it locks the item against a concurrent
-- delete, and the item's organisation is the row's own (written by the batch from the item).
-- The cascades the dropped keys gave are kept, as 0026 does for the items' organisation:
-- - an organisation deleted takes its items (0026), and their snapshots and events with them
--   (the item keys cascade);
-- - a run deleted takes its events and leaves its snapshots without a run, by the trigger below
--   (one statement for all deleted runs; the events by their unique key, which leads with run_id).
-- No application path deletes runs or organisations today.
ALTER TABLE finding_snapshots DROP CONSTRAINT finding_snapshots_organisation_id_fkey;
ALTER TABLE finding_snapshots DROP CONSTRAINT finding_snapshots_run_id_fkey;
ALTER TABLE monitoring_events DROP CONSTRAINT monitoring_events_organisation_id_fkey;
ALTER TABLE monitoring_events DROP CONSTRAINT monitoring_events_run_id_fkey;

CREATE FUNCTION check_runs_forget_writes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM monitoring_events e USING old_runs r WHERE e.run_id = r.id;
  UPDATE finding_snapshots s SET run_id = NULL FROM old_runs r WHERE s.run_id = r.id;
  RETURN NULL;
END $$;
CREATE TRIGGER check_runs_forget_writes AFTER DELETE ON check_runs
  REFERENCING OLD TABLE AS old_runs FOR EACH STATEMENT EXECUTE FUNCTION check_runs_forget_writes();
