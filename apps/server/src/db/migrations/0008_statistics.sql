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

-- The portfolio per Moscow day and item kind: items added (by created_at) and archived (by archived_at).
-- The portfolio at the end of a day is the running sum of added − archived: a million items are a few
-- hundred rows per organisation and year.
CREATE TABLE statistics_item_days (
  organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  day date NOT NULL,
  kind text NOT NULL,
  added integer NOT NULL DEFAULT 0,
  archived integer NOT NULL DEFAULT 0,
  PRIMARY KEY (organisation_id, day, kind)
);

-- Bulk inserts (uploads, the pledge registry) are one aggregated upsert per statement.
CREATE FUNCTION statistics_items_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO statistics_item_days AS s (organisation_id, day, kind, added, archived)
  SELECT organisation_id, day, kind, sum(added), sum(archived)
    FROM (SELECT organisation_id, (created_at AT TIME ZONE 'Europe/Moscow')::date AS day, kind, 1 AS added, 0 AS archived
            FROM statistics_new_items
          UNION ALL
          SELECT organisation_id, (archived_at AT TIME ZONE 'Europe/Moscow')::date, kind, 0, 1
            FROM statistics_new_items WHERE archived_at IS NOT NULL) x
   GROUP BY 1, 2, 3
   ORDER BY 1, 2, 3
  ON CONFLICT (organisation_id, day, kind)
  DO UPDATE SET added = s.added + EXCLUDED.added, archived = s.archived + EXCLUDED.archived;
  RETURN NULL;
END
$$;

CREATE FUNCTION statistics_items_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE statistics_item_days s SET added = s.added - d.added, archived = s.archived - d.archived
    FROM (SELECT organisation_id, day, kind, sum(added)::int AS added, sum(archived)::int AS archived
            FROM (SELECT organisation_id, (created_at AT TIME ZONE 'Europe/Moscow')::date AS day, kind, 1 AS added,
                         0 AS archived
                    FROM statistics_old_items
                  UNION ALL
                  SELECT organisation_id, (archived_at AT TIME ZONE 'Europe/Moscow')::date, kind, 0, 1
                    FROM statistics_old_items WHERE archived_at IS NOT NULL) x
           GROUP BY 1, 2, 3) d
   WHERE s.organisation_id = d.organisation_id AND s.day = d.day AND s.kind = d.kind;
  RETURN NULL;
END
$$;

-- Archiving and restoring change archived_at of a few rows at a time: a row trigger, fired only when
-- a counted column really changes (last_checked_at updates of every check batch never fire it).
CREATE FUNCTION statistics_item_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (OLD.created_at, OLD.kind, OLD.organisation_id) IS DISTINCT FROM (NEW.created_at, NEW.kind, NEW.organisation_id) THEN
    UPDATE statistics_item_days SET added = added - 1
     WHERE organisation_id = OLD.organisation_id AND kind = OLD.kind
       AND day = (OLD.created_at AT TIME ZONE 'Europe/Moscow')::date;
    INSERT INTO statistics_item_days AS s (organisation_id, day, kind, added)
    VALUES (NEW.organisation_id, (NEW.created_at AT TIME ZONE 'Europe/Moscow')::date, NEW.kind, 1)
    ON CONFLICT (organisation_id, day, kind) DO UPDATE SET added = s.added + 1;
  END IF;
  IF OLD.archived_at IS NOT NULL THEN
    UPDATE statistics_item_days SET archived = archived - 1
     WHERE organisation_id = OLD.organisation_id AND kind = OLD.kind
       AND day = (OLD.archived_at AT TIME ZONE 'Europe/Moscow')::date;
  END IF;
  IF NEW.archived_at IS NOT NULL THEN
    INSERT INTO statistics_item_days AS s (organisation_id, day, kind, archived)
    VALUES (NEW.organisation_id, (NEW.archived_at AT TIME ZONE 'Europe/Moscow')::date, NEW.kind, 1)
    ON CONFLICT (organisation_id, day, kind) DO UPDATE SET archived = s.archived + 1;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER statistics_items_insert AFTER INSERT ON monitoring_items
  REFERENCING NEW TABLE AS statistics_new_items
  FOR EACH STATEMENT EXECUTE FUNCTION statistics_items_inserted();
CREATE TRIGGER statistics_items_delete AFTER DELETE ON monitoring_items
  REFERENCING OLD TABLE AS statistics_old_items
  FOR EACH STATEMENT EXECUTE FUNCTION statistics_items_deleted();
CREATE TRIGGER statistics_items_update AFTER UPDATE OF created_at, archived_at, kind, organisation_id ON monitoring_items
  FOR EACH ROW
  WHEN ((OLD.created_at, OLD.archived_at, OLD.kind, OLD.organisation_id)
        IS DISTINCT FROM (NEW.created_at, NEW.archived_at, NEW.kind, NEW.organisation_id))
  EXECUTE FUNCTION statistics_item_changed();

INSERT INTO statistics_item_days (organisation_id, day, kind, added, archived)
SELECT organisation_id, day, kind, sum(added), sum(archived)
  FROM (SELECT organisation_id, (created_at AT TIME ZONE 'Europe/Moscow')::date AS day, kind, 1 AS added, 0 AS archived
          FROM monitoring_items
        UNION ALL
        SELECT organisation_id, (archived_at AT TIME ZONE 'Europe/Moscow')::date, kind, 0, 1
          FROM monitoring_items WHERE archived_at IS NOT NULL) x
 GROUP BY 1, 2, 3;

-- Deliveries per Moscow day (of creation) and current status. A delivery changes status a few times
-- (queued → sending → sent): each change moves one count between two rows of its day.
CREATE TABLE statistics_delivery_days (
  organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  day date NOT NULL,
  status text NOT NULL,
  deliveries integer NOT NULL DEFAULT 0,
  PRIMARY KEY (organisation_id, day, status)
);

CREATE FUNCTION statistics_delivery_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE statistics_delivery_days SET deliveries = deliveries - 1
     WHERE organisation_id = OLD.organisation_id AND status = OLD.status
       AND day = (OLD.created_at AT TIME ZONE 'Europe/Moscow')::date;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    INSERT INTO statistics_delivery_days AS s (organisation_id, day, status, deliveries)
    VALUES (NEW.organisation_id, (NEW.created_at AT TIME ZONE 'Europe/Moscow')::date, NEW.status, 1)
    ON CONFLICT (organisation_id, day, status) DO UPDATE SET deliveries = s.deliveries + 1;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER statistics_deliveries_insert AFTER INSERT OR DELETE ON notification_deliveries
  FOR EACH ROW EXECUTE FUNCTION statistics_delivery_changed();
CREATE TRIGGER statistics_deliveries_update AFTER UPDATE OF status, created_at, organisation_id ON notification_deliveries
  FOR EACH ROW
  WHEN ((OLD.status, OLD.created_at, OLD.organisation_id) IS DISTINCT FROM (NEW.status, NEW.created_at, NEW.organisation_id))
  EXECUTE FUNCTION statistics_delivery_changed();

INSERT INTO statistics_delivery_days (organisation_id, day, status, deliveries)
SELECT organisation_id, (created_at AT TIME ZONE 'Europe/Moscow')::date, status, count(*)
  FROM notification_deliveries
 GROUP BY 1, 2, 3;

-- Runs, one-time checks and uploads are small per organisation and read through their
-- (organisation_id, created_at) indexes; unread events for the dashboard use the partial unread index
-- of 0004.
