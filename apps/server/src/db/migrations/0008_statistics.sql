-- Statistics: a daily rollup of monitoring events (kept by statement triggers) and the indexes the
-- statistics, dashboard and report queries read.

-- Events per Moscow calendar day, type, source and item kind. A year of events for a million items
-- is millions of rows; this table is a few thousand per organisation and year.
CREATE TABLE statistics_event_days (
  organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  -- (detected_at AT TIME ZONE 'Europe/Moscow')::date
  day date NOT NULL,
  event_type text NOT NULL,
  source_type text NOT NULL,
  item_kind text NOT NULL,
  events integer NOT NULL,
  PRIMARY KEY (organisation_id, day, event_type, source_type, item_kind)
);

-- One upsert per INSERT statement (a check batch inserts its events in one statement). Rows are taken
-- in key order, so concurrent batches lock rollup rows in the same order and cannot deadlock on them.
CREATE FUNCTION statistics_events_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO statistics_event_days AS s (organisation_id, day, event_type, source_type, item_kind, events)
  SELECT n.organisation_id, (n.detected_at AT TIME ZONE 'Europe/Moscow')::date, n.event_type, n.source_type,
         i.kind, count(*)
    FROM statistics_new_events n JOIN monitoring_items i ON i.id = n.item_id
   GROUP BY 1, 2, 3, 4, 5
   ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (organisation_id, day, event_type, source_type, item_kind)
  DO UPDATE SET events = s.events + EXCLUDED.events;
  RETURN NULL;
END
$$;

-- Deleted events (an item or organisation deleted, cascading) are subtracted. Only UPDATE here: when the
-- whole organisation goes, its rollup rows are already gone and nothing may be inserted for it. The item
-- may be gone too (cascade), so its kind falls back to the kind the source checks.
CREATE FUNCTION statistics_events_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE statistics_event_days s SET events = s.events - d.events
    FROM (SELECT o.organisation_id, (o.detected_at AT TIME ZONE 'Europe/Moscow')::date AS day, o.event_type,
                 o.source_type,
                 coalesce(i.kind, CASE WHEN o.source_type IN ('bankruptcy', 'enforcement', 'passport')
                                       THEN 'document' ELSE 'vin' END) AS item_kind,
                 count(*)::int AS events
            FROM statistics_old_events o LEFT JOIN monitoring_items i ON i.id = o.item_id
           GROUP BY 1, 2, 3, 4, 5) d
   WHERE s.organisation_id = d.organisation_id AND s.day = d.day AND s.event_type = d.event_type
     AND s.source_type = d.source_type AND s.item_kind = d.item_kind;
  RETURN NULL;
END
$$;

-- Events are never updated in the counted columns (detected_at, type, source, item): only read marks.
CREATE TRIGGER statistics_events_insert AFTER INSERT ON monitoring_events
  REFERENCING NEW TABLE AS statistics_new_events
  FOR EACH STATEMENT EXECUTE FUNCTION statistics_events_inserted();
CREATE TRIGGER statistics_events_delete AFTER DELETE ON monitoring_events
  REFERENCING OLD TABLE AS statistics_old_events
  FOR EACH STATEMENT EXECUTE FUNCTION statistics_events_deleted();

INSERT INTO statistics_event_days (organisation_id, day, event_type, source_type, item_kind, events)
SELECT e.organisation_id, (e.detected_at AT TIME ZONE 'Europe/Moscow')::date, e.event_type, e.source_type, i.kind,
       count(*)
  FROM monitoring_events e JOIN monitoring_items i ON i.id = e.item_id
 GROUP BY 1, 2, 3, 4, 5;

-- Deliveries by day and status as an index-only scan.
CREATE INDEX statistics_deliveries_idx ON notification_deliveries (organisation_id, created_at) INCLUDE (status);

-- Portfolio size over time subtracts archived items; few items are archived, so the index is small.
CREATE INDEX statistics_items_archived_idx ON monitoring_items (organisation_id, archived_at) INCLUDE (kind)
  WHERE archived_at IS NOT NULL;

-- Reports and statistics of one-time checks and uploads by period use the existing
-- (organisation_id, created_at) indexes; unread events by type for the dashboard use the partial
-- unread index of 0004.
