-- Issue 14: a notification the registry rejected can be corrected and submitted again. Each rejection
-- of a package is kept per event (the history survives the event moving into a new package), and a
-- corrected event remembers who corrected it (a maker of any package it goes into).

CREATE TABLE pledge_event_rejections (
  id bigserial PRIMARY KEY,
  event_id uuid NOT NULL REFERENCES pledge_events (id) ON DELETE CASCADE,
  package_id uuid REFERENCES pledge_packages (id) ON DELETE SET NULL,
  reason text,
  rejected_by uuid REFERENCES users (id) ON DELETE SET NULL,
  rejected_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pledge_event_rejections_event_idx ON pledge_event_rejections (event_id, id);
CREATE INDEX pledge_event_rejections_package_idx ON pledge_event_rejections (package_id);

ALTER TABLE pledge_events
  ADD COLUMN corrected_by uuid REFERENCES users (id) ON DELETE SET NULL,
  ADD COLUMN corrected_at timestamptz;
