-- Issue 14: notification rules that watch the sources (failures in a row, stale data) besides
-- events; the alert state that makes one alert per episode; deliveries that carry an alert instead
-- of events; and pledge-term lapse events, which no check run creates.

-- `events`: the rule matches monitoring events (as before). `source_failure`: a source failed
-- `failure_threshold` times in a row. `source_stale`: a source has not refreshed for `stale_hours`.
-- `source_type` NULL = any source.
ALTER TABLE notification_rules
  ADD COLUMN subject text NOT NULL DEFAULT 'events'
    CHECK (subject IN ('events', 'source_failure', 'source_stale')),
  ADD COLUMN source_type text,
  ADD COLUMN failure_threshold integer NOT NULL DEFAULT 3 CHECK (failure_threshold BETWEEN 1 AND 100),
  ADD COLUMN stale_hours integer NOT NULL DEFAULT 24 CHECK (stale_hours BETWEEN 1 AND 8760),
  ADD COLUMN notify_recovery boolean NOT NULL DEFAULT true;

-- One row per rule, source and alert kind: `open` while the episode lasts (the alert went out),
-- closed when the source recovers. `episode` counts the episodes and keys their deliveries, so a
-- job that runs twice, or two workers at once, send each alert once.
CREATE TABLE source_alert_states (
  rule_id uuid NOT NULL REFERENCES notification_rules (id) ON DELETE CASCADE,
  source_type text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('failure', 'stale')),
  open boolean NOT NULL DEFAULT false,
  episode integer NOT NULL DEFAULT 0,
  opened_at timestamptz,
  closed_at timestamptz,
  PRIMARY KEY (rule_id, source_type, kind)
);

-- A source alert delivery carries its alert (source, what happened, when) in `payload`.
ALTER TABLE notification_deliveries DROP CONSTRAINT notification_deliveries_kind_check;
ALTER TABLE notification_deliveries
  ADD CONSTRAINT notification_deliveries_kind_check CHECK (kind IN ('event', 'digest', 'test', 'source')),
  ADD COLUMN payload jsonb;

-- Lapse events come from the daily lapse job, not from a run.
ALTER TABLE monitoring_events ALTER COLUMN run_id DROP NOT NULL;
-- Each lapse milestone (30, 7, 0 days) of one pledge term once, however often the job runs.
CREATE UNIQUE INDEX monitoring_events_lapse_key
  ON monitoring_events (organisation_id, event_type, finding_key) WHERE run_id IS NULL;
