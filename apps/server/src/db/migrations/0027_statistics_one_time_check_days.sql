-- One-time checks per Moscow day (of creation) and subject kind, for the statistics screen: a year of
-- a busy organisation's checks (20,000) was grouped by day on every visit (9–30 ms of a 365-day
-- answer); the rollup has at most two rows a day. Kept by a row trigger: checks are stored one at a
-- time, under their organisation's counter lock already, so the day's row adds no contention.
CREATE TABLE statistics_one_time_check_days (
  organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  day date NOT NULL,
  kind text NOT NULL,
  checks integer NOT NULL DEFAULT 0,
  PRIMARY KEY (organisation_id, day, kind)
);

CREATE FUNCTION statistics_one_time_check_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE statistics_one_time_check_days SET checks = checks - 1
     WHERE organisation_id = OLD.organisation_id AND kind = OLD.kind
       AND day = (OLD.created_at AT TIME ZONE 'Europe/Moscow')::date;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    INSERT INTO statistics_one_time_check_days AS s (organisation_id, day, kind, checks)
    VALUES (NEW.organisation_id, (NEW.created_at AT TIME ZONE 'Europe/Moscow')::date, NEW.kind, 1)
    ON CONFLICT (organisation_id, day, kind) DO UPDATE SET checks = s.checks + 1;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER statistics_one_time_checks_insert AFTER INSERT OR DELETE ON one_time_checks
  FOR EACH ROW EXECUTE FUNCTION statistics_one_time_check_changed();
CREATE TRIGGER statistics_one_time_checks_update AFTER UPDATE OF kind, created_at, organisation_id ON one_time_checks
  FOR EACH ROW
  WHEN ((OLD.kind, OLD.created_at, OLD.organisation_id) IS DISTINCT FROM (NEW.kind, NEW.created_at, NEW.organisation_id))
  EXECUTE FUNCTION statistics_one_time_check_changed();

INSERT INTO statistics_one_time_check_days (organisation_id, day, kind, checks)
SELECT organisation_id, (created_at AT TIME ZONE 'Europe/Moscow')::date, kind, count(*)
  FROM one_time_checks
 GROUP BY 1, 2, 3;
