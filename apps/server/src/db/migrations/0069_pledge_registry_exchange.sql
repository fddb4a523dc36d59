-- Issue 23: pledge notifications in the registry's own XML format, and its answers read back.
-- notification_id: the GUID written as NotificationId in the notification's file, the same on every
-- export; a correction gives the notification a new one (it is a new document for the registry).
-- registered_at: RegistrationTime of its registration certificate.
-- registry_checked_at / registry_found: the re-check after registration (found in the registry or not
-- yet), shown on the notification.
-- pledge_event_rejections.source: 'manual' (a person marked the package rejected) or 'registry' (a
-- RegistrationRejectMessage read from the registry's results file).

ALTER TABLE pledge_events
  ADD COLUMN notification_id uuid NOT NULL DEFAULT gen_random_uuid(),
  ADD COLUMN registered_at timestamptz,
  ADD COLUMN registry_checked_at timestamptz,
  ADD COLUMN registry_found boolean;
CREATE UNIQUE INDEX pledge_events_notification_id_key ON pledge_events (notification_id);

ALTER TABLE pledge_event_rejections
  ADD COLUMN source text NOT NULL DEFAULT 'manual' CHECK (source IN ('manual', 'registry'));
