-- A run whose organisation's items have not changed since its last run takes that run's batches
-- instead of ranking a million items again (issue #15: ~1 s of a repeated run). The items'
-- revision (the sum of monitoring_item_revisions' marks, 0036) is recorded with each plan; it only
-- grows, and only once a change of the items commits, so an equal revision means the same items.
ALTER TABLE check_runs
  ADD COLUMN items_revision numeric,
  -- The run whose batches this one reused; null when it ranked the items itself.
  ADD COLUMN planned_from uuid REFERENCES check_runs (id) ON DELETE SET NULL;
