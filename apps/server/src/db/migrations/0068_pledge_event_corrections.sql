-- Issue 27, finding 2: maker-checker by correction. `pledge_events.corrected_by` holds only the latest
-- corrector, so an analyst who corrected a notification could approve its package once someone else
-- corrected it again. Every correction is kept here (who, when); everyone in it is a maker of any
-- package the event goes into. The corrections made before this migration are known only by their
-- latest corrector, who is carried over.

CREATE TABLE pledge_event_corrections (
  id bigserial PRIMARY KEY,
  event_id uuid NOT NULL REFERENCES pledge_events (id) ON DELETE CASCADE,
  corrected_by uuid REFERENCES users (id) ON DELETE SET NULL,
  corrected_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pledge_event_corrections_event_idx ON pledge_event_corrections (event_id, id);

INSERT INTO pledge_event_corrections (event_id, corrected_by, corrected_at)
SELECT id, corrected_by, coalesce(corrected_at, now())
  FROM pledge_events
 WHERE corrected_by IS NOT NULL;
