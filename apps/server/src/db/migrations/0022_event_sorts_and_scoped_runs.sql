-- Issue 14: the events table sorts by importance, type or source on the server. With millions of an
-- organisation's events each sort walks an index in its order (ties by time, newest or oldest with
-- the chosen direction), so the first page never sorts the whole set. Importance sorts by rank, not
-- by its code's spelling.
CREATE INDEX monitoring_events_org_severity_idx ON monitoring_events (
  organisation_id,
  (CASE severity WHEN 'low' THEN 1 WHEN 'medium' THEN 2 WHEN 'high' THEN 3 WHEN 'critical' THEN 4 ELSE 0 END),
  detected_at,
  id
);
CREATE INDEX monitoring_events_org_type_idx ON monitoring_events (organisation_id, event_type, detected_at, id);
CREATE INDEX monitoring_events_org_source_idx ON monitoring_events (organisation_id, source_type, detected_at, id);

-- A run may check only some items: after a pledge package is registered its vehicles are checked
-- again at once (trigger `pledge_registered`), so the registry's word on them is seen without
-- waiting for the next regular run. item_scope holds the identifiers; NULL means every active item.
ALTER TABLE check_runs DROP CONSTRAINT check_runs_trigger_check;
ALTER TABLE check_runs ADD CONSTRAINT check_runs_trigger_check
  CHECK (trigger IN ('manual', 'scheduled', 'pledge_registered'));
ALTER TABLE check_runs ADD COLUMN item_scope text[];
