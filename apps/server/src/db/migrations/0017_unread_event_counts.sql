-- Unread events per organisation, type, source and severity, for the dashboard and the events list.
-- Counting them over monitoring_events read hundreds of thousands of rows on every visit of either
-- screen (a quarter of a year of events of a million items is unread). Kept like
-- monitoring_item_counts (0002): writers only append delta rows, so concurrent check batches and
-- read marks never wait on each other; readers sum an organisation's few rows and fold them when
-- there are many (compact_monitoring_event_unread_counts).
CREATE TABLE monitoring_event_unread_counts (
  organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  event_type text NOT NULL,
  source_type text NOT NULL,
  severity text NOT NULL,
  events bigint NOT NULL
);
CREATE INDEX monitoring_event_unread_counts_org_idx
  ON monitoring_event_unread_counts (organisation_id, event_type, source_type, severity);

-- One delta per group and statement: a check batch inserts its events in one statement.
CREATE FUNCTION monitoring_events_unread_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO monitoring_event_unread_counts (organisation_id, event_type, source_type, severity, events)
  SELECT organisation_id, event_type, source_type, severity, count(*)
    FROM unread_new_events WHERE read_at IS NULL GROUP BY 1, 2, 3, 4;
  RETURN NULL;
END $$;
CREATE TRIGGER monitoring_events_unread_insert AFTER INSERT ON monitoring_events
  REFERENCING NEW TABLE AS unread_new_events
  FOR EACH STATEMENT EXECUTE FUNCTION monitoring_events_unread_inserted();

-- Skips an organisation that is itself being deleted (its counts go with it).
CREATE FUNCTION monitoring_events_unread_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO monitoring_event_unread_counts (organisation_id, event_type, source_type, severity, events)
  SELECT d.organisation_id, d.event_type, d.source_type, d.severity, -count(*)
    FROM unread_old_events d
   WHERE d.read_at IS NULL AND EXISTS (SELECT 1 FROM organisations o WHERE o.id = d.organisation_id)
   GROUP BY 1, 2, 3, 4;
  RETURN NULL;
END $$;
CREATE TRIGGER monitoring_events_unread_delete AFTER DELETE ON monitoring_events
  REFERENCING OLD TABLE AS unread_old_events
  FOR EACH STATEMENT EXECUTE FUNCTION monitoring_events_unread_deleted();

-- Read marks (one statement for a page of events or for all of them): what was unread before minus
-- what is unread after, per group. A trigger with transition tables cannot name columns, so it
-- fires on every UPDATE of events; read marks are the only updates events get.
CREATE FUNCTION monitoring_events_unread_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO monitoring_event_unread_counts (organisation_id, event_type, source_type, severity, events)
  SELECT organisation_id, event_type, source_type, severity, sum(delta)
    FROM (SELECT organisation_id, event_type, source_type, severity, 1 AS delta
            FROM unread_new_events WHERE read_at IS NULL
          UNION ALL
          SELECT organisation_id, event_type, source_type, severity, -1
            FROM unread_old_events WHERE read_at IS NULL) x
   GROUP BY 1, 2, 3, 4
  HAVING sum(delta) <> 0;
  RETURN NULL;
END $$;
CREATE TRIGGER monitoring_events_unread_update AFTER UPDATE ON monitoring_events
  REFERENCING OLD TABLE AS unread_old_events NEW TABLE AS unread_new_events
  FOR EACH STATEMENT EXECUTE FUNCTION monitoring_events_unread_updated();

-- Folds an organisation's deltas into one row per group. Safe beside concurrent writers: deltas they
-- have not committed yet are not seen, so not deleted, and are summed later. Two readers folding at
-- once would wait on each other's rows: the second skips (it reads the sum either way).
CREATE FUNCTION compact_monitoring_event_unread_counts(org uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF NOT pg_try_advisory_xact_lock(724611200, hashtext(org::text)) THEN
    RETURN;
  END IF;
  WITH gone AS (
    DELETE FROM monitoring_event_unread_counts WHERE organisation_id = org
    RETURNING event_type, source_type, severity, events
  )
  INSERT INTO monitoring_event_unread_counts (organisation_id, event_type, source_type, severity, events)
  SELECT org, event_type, source_type, severity, sum(events) FROM gone
   GROUP BY event_type, source_type, severity HAVING sum(events) <> 0;
END $$;

INSERT INTO monitoring_event_unread_counts (organisation_id, event_type, source_type, severity, events)
SELECT organisation_id, event_type, source_type, severity, count(*)
  FROM monitoring_events WHERE read_at IS NULL GROUP BY 1, 2, 3, 4;
