-- The pledge registry (issue 6): pledges and their current state, the notifications (events) that
-- shaped them, packages of notifications to submit, and the staging rows of pledge-event uploads.

CREATE TABLE pledge_packages (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  -- «Пакет № N», counted per organisation
  number integer NOT NULL,
  name text NOT NULL,
  origin text NOT NULL CHECK (origin IN ('upload', 'manual')),
  upload_id uuid REFERENCES uploads (id) ON DELETE SET NULL,
  -- draft → ready (approved by a second person) → sent → registered | rejected; ready → draft (returned)
  status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'ready', 'sent', 'registered', 'rejected')),
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  approved_by uuid REFERENCES users (id) ON DELETE SET NULL,
  approved_at timestamptz,
  sent_at timestamptz,
  registered_at timestamptz,
  rejection_reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organisation_id, number)
);
CREATE UNIQUE INDEX pledge_packages_upload_key ON pledge_packages (upload_id) WHERE upload_id IS NOT NULL;
CREATE INDEX pledge_packages_org_idx ON pledge_packages (organisation_id, created_at DESC);

CREATE TABLE pledge_package_history (
  id bigserial PRIMARY KEY,
  package_id uuid NOT NULL REFERENCES pledge_packages (id) ON DELETE CASCADE,
  action text NOT NULL,
  from_status text,
  to_status text NOT NULL,
  comment text,
  user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pledge_package_history_package_idx ON pledge_package_history (package_id, id);

-- One pledge as the registry knows it now: the fold of its events in order of notification date.
CREATE TABLE pledges (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  -- number of the creation notification; NULL until given or entered when its package is registered
  registration_number text,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'changed', 'excluded')),
  contract_name text,
  contract_number text NOT NULL,
  contract_date date NOT NULL,
  contract_end_date date,
  pledgor jsonb NOT NULL,
  pledgor_name text NOT NULL,
  -- the pledgor's document (or a company's INN): what creation puts on monitoring
  pledgor_document_type text NOT NULL,
  pledgor_identifier text NOT NULL,
  pledgee jsonb NOT NULL,
  pledgee_name text NOT NULL,
  -- current vehicles: [{vin, bodyNumber, chassisNumber, description}]
  vehicles jsonb NOT NULL DEFAULT '[]'::jsonb,
  created_on date NOT NULL,
  last_notification_date date NOT NULL,
  excluded_on date,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX pledges_registration_key
  ON pledges (organisation_id, registration_number) WHERE registration_number IS NOT NULL;
CREATE INDEX pledges_org_contract_idx ON pledges (organisation_id, contract_number);

-- The current vehicles of each pledge, one row each: the `pledges` check source matches VINs across
-- organisations (the public registry) through the VIN index.
CREATE TABLE pledge_vehicles (
  pledge_id uuid NOT NULL REFERENCES pledges (id) ON DELETE CASCADE,
  organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  position integer NOT NULL,
  vin text,
  body_number text,
  chassis_number text,
  description text,
  PRIMARY KEY (pledge_id, position)
);
CREATE INDEX pledge_vehicles_vin_idx ON pledge_vehicles (vin) WHERE vin IS NOT NULL;
CREATE INDEX pledge_vehicles_org_vin_idx ON pledge_vehicles (organisation_id, vin);

CREATE TABLE pledge_events (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  pledge_id uuid NOT NULL REFERENCES pledges (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('creation', 'change', 'exclusion')),
  -- hash of the notification's content: the same notification sent twice (a re-uploaded file) is one event
  event_key text NOT NULL,
  -- the pledge's number as the notification gives it (creation: when known; change/exclusion: the reference)
  registration_number text,
  -- the number the registry gave this notification when its package was registered
  registered_number text,
  notification_date date NOT NULL,
  pledgor jsonb NOT NULL,
  pledgor_name text NOT NULL,
  -- the pledgor's document or INN, for the pledgor filter
  pledgor_identifier text NOT NULL,
  pledgee jsonb NOT NULL,
  pledgee_name text NOT NULL,
  contract_name text,
  contract_number text NOT NULL,
  contract_date date NOT NULL,
  contract_end_date date,
  vehicles jsonb NOT NULL,
  vins text[] NOT NULL DEFAULT '{}',
  source text NOT NULL CHECK (source IN ('form', 'upload')),
  upload_id uuid REFERENCES uploads (id) ON DELETE SET NULL,
  row_number integer,
  package_id uuid REFERENCES pledge_packages (id) ON DELETE SET NULL,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organisation_id, event_key)
);
CREATE INDEX pledge_events_org_date_idx ON pledge_events (organisation_id, notification_date DESC, created_at DESC);
CREATE INDEX pledge_events_pledge_idx ON pledge_events (pledge_id, notification_date, created_at);
CREATE INDEX pledge_events_package_idx ON pledge_events (package_id);
CREATE INDEX pledge_events_vins_idx ON pledge_events USING gin (vins);
CREATE INDEX pledge_events_pledgor_idx ON pledge_events USING gin (
  (lower(pledgor_name || ' ' || pledgor_identifier)) gin_trgm_ops
);

-- Staging of a pledge-events upload: one row per file row (one vehicle), grouped into events by
-- group_key (the hash of the event's own fields). Unlogged like upload_item_rows: a crash empties it
-- and the import then refuses to import part of a file.
CREATE UNLOGGED TABLE upload_pledge_event_rows (
  upload_id uuid NOT NULL,
  row_number integer NOT NULL,
  group_key text NOT NULL,
  -- the event's fields without the vehicle, normalised (PledgeEventData minus vehicles)
  event jsonb NOT NULL,
  vin text,
  body_number text,
  chassis_number text,
  description text,
  warning text,
  -- the row as it stood in the file, in the template's column order (for the error file)
  raw text[] NOT NULL DEFAULT '{}'
);
CREATE INDEX upload_pledge_event_rows_upload_idx ON upload_pledge_event_rows (upload_id, row_number);
