-- Events per Moscow day, type, source and severity, for the events list's total with a severity
-- filter: counting «high and critical» over a year of a million items' events read half of millions
-- of rows on every page; this table is a few thousand rows per organisation and year. Kept like
-- statistics_event_days (0008): one upsert per INSERT statement, in key order (no deadlocks between
-- concurrent batches), and a subtraction per DELETE statement. Events never change their counted
-- columns (detected_at, type, source, severity): only read marks.
CREATE TABLE monitoring_event_severity_days (
  organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  -- (detected_at AT TIME ZONE 'Europe/Moscow')::date
  day date NOT NULL,
  event_type text NOT NULL,
  source_type text NOT NULL,
  severity text NOT NULL,
  events integer NOT NULL,
  PRIMARY KEY (organisation_id, day, event_type, source_type, severity)
);

CREATE FUNCTION monitoring_event_severity_days_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO monitoring_event_severity_days AS s (organisation_id, day, event_type, source_type, severity, events)
  SELECT organisation_id, (detected_at AT TIME ZONE 'Europe/Moscow')::date, event_type, source_type, severity, count(*)
    FROM severity_new_events
   GROUP BY 1, 2, 3, 4, 5
   ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (organisation_id, day, event_type, source_type, severity)
  DO UPDATE SET events = s.events + EXCLUDED.events;
  RETURN NULL;
END
$$;

-- Only UPDATE: when the whole organisation goes, its rows are already gone.
CREATE FUNCTION monitoring_event_severity_days_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE monitoring_event_severity_days s SET events = s.events - d.events
    FROM (SELECT organisation_id, (detected_at AT TIME ZONE 'Europe/Moscow')::date AS day, event_type, source_type,
                 severity, count(*)::int AS events
            FROM severity_old_events GROUP BY 1, 2, 3, 4, 5) d
   WHERE s.organisation_id = d.organisation_id AND s.day = d.day AND s.event_type = d.event_type
     AND s.source_type = d.source_type AND s.severity = d.severity;
  RETURN NULL;
END
$$;

CREATE TRIGGER monitoring_event_severity_days_insert AFTER INSERT ON monitoring_events
  REFERENCING NEW TABLE AS severity_new_events
  FOR EACH STATEMENT EXECUTE FUNCTION monitoring_event_severity_days_inserted();
CREATE TRIGGER monitoring_event_severity_days_delete AFTER DELETE ON monitoring_events
  REFERENCING OLD TABLE AS severity_old_events
  FOR EACH STATEMENT EXECUTE FUNCTION monitoring_event_severity_days_deleted();

INSERT INTO monitoring_event_severity_days (organisation_id, day, event_type, source_type, severity, events)
SELECT organisation_id, (detected_at AT TIME ZONE 'Europe/Moscow')::date, event_type, source_type, severity, count(*)
  FROM monitoring_events
 GROUP BY 1, 2, 3, 4, 5;
