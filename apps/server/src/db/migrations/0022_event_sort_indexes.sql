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
