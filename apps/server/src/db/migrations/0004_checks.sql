-- The checks engine: dataset sources, remote-source cache, regular check runs, finding snapshots,
-- monitoring events and one-time checks.

-- Dataset sources: each import is a version; exactly one version per source type is active and
-- checks read only the active one, so a new version replaces the old atomically.
CREATE TABLE source_imports (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  source_type text NOT NULL,
  version integer NOT NULL,
  file_name text NOT NULL,
  status text NOT NULL DEFAULT 'importing' CHECK (status IN ('importing', 'active', 'superseded', 'failed')),
  records_total integer NOT NULL DEFAULT 0,
  rows_rejected integer NOT NULL DEFAULT 0,
  errors jsonb NOT NULL DEFAULT '[]'::jsonb,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  activated_at timestamptz,
  UNIQUE (source_type, version)
);
CREATE UNIQUE INDEX source_imports_active_key ON source_imports (source_type) WHERE status = 'active';

-- Records of inactive versions can be deleted at any time (DELETE ... WHERE import_id = ...).
CREATE TABLE source_records (
  import_id uuid NOT NULL REFERENCES source_imports (id) ON DELETE CASCADE,
  -- '' for VINs, else a document type of the identifier package
  document_type text NOT NULL DEFAULT '',
  identifier text NOT NULL,
  finding_key text NOT NULL,
  payload jsonb NOT NULL
);
CREATE INDEX source_records_match_idx ON source_records (import_id, identifier, document_type);

-- Answers of remote (HTTP) sources, kept for a TTL per source type.
CREATE TABLE source_cache (
  source_type text NOT NULL,
  document_type text NOT NULL DEFAULT '',
  identifier text NOT NULL,
  findings jsonb NOT NULL,
  fetched_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (source_type, document_type, identifier)
);

-- One row per answer of a source (one item of a one-time check, or one batch of a run): the
-- source list shows p50/p95 answer times and failures in a row from here.
CREATE TABLE source_answers (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  source_type text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('item', 'batch')),
  items integer NOT NULL,
  ok boolean NOT NULL,
  duration_ms integer NOT NULL,
  error text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX source_answers_recent_idx ON source_answers (source_type, id DESC);

CREATE TABLE check_schedules (
  organisation_id uuid PRIMARY KEY REFERENCES organisations (id) ON DELETE CASCADE,
  enabled boolean NOT NULL DEFAULT true,
  -- Moscow time of day
  run_at time NOT NULL,
  last_triggered_on date,
  last_triggered_at timestamptz,
  updated_by uuid REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE check_runs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  trigger text NOT NULL CHECK (trigger IN ('manual', 'scheduled')),
  status text NOT NULL DEFAULT 'queued'
    CHECK (status IN ('queued', 'running', 'completed', 'completed_with_errors', 'failed')),
  batch_size integer NOT NULL,
  items_total integer NOT NULL DEFAULT 0,
  items_done integer NOT NULL DEFAULT 0,
  batches_total integer NOT NULL DEFAULT 0,
  batches_done integer NOT NULL DEFAULT 0,
  events_created integer NOT NULL DEFAULT 0,
  error text,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz
);
CREATE INDEX check_runs_org_created_idx ON check_runs (organisation_id, created_at DESC, id);
-- One unfinished run per organisation.
CREATE UNIQUE INDEX check_runs_one_open_key ON check_runs (organisation_id) WHERE status IN ('queued', 'running');

-- A run is cut into batches of consecutive identifiers of one item kind (fixed when the run is
-- planned; one identifier is never split between two batches); each batch is one job that runs every
-- source. Identifier ranges, not id ranges: a batch reads its items, the dataset records and the
-- snapshots as three index range scans in identifier order, where id ranges meant a random index
-- probe per item and source. `sources` holds per-source state: {type: {status, attempts, items,
-- findings, events, error, durationMs}}; a source whose state is `done` is never run again for that batch.
CREATE TABLE check_run_batches (
  run_id uuid NOT NULL REFERENCES check_runs (id) ON DELETE CASCADE,
  batch_no integer NOT NULL,
  kind text NOT NULL CHECK (kind IN ('vin', 'document')),
  identifier_from text NOT NULL,
  identifier_to text NOT NULL,
  items integer NOT NULL,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'done', 'failed')),
  sources jsonb NOT NULL DEFAULT '{}'::jsonb,
  finished_at timestamptz,
  PRIMARY KEY (run_id, batch_no)
);

-- The current findings of an item per source (only items with findings have a row); a run diffs
-- against it. `hash` is md5 over the keys and payloads, computed the same way by every writer, so an
-- unchanged item is one hash comparison in SQL. `identifier` copies the item's (immutable) identifier:
-- a batch reads its snapshots as one range of the index below (hashes included, index-only) instead of
-- probing the primary key once per item.
CREATE TABLE finding_snapshots (
  item_id uuid NOT NULL REFERENCES monitoring_items (id) ON DELETE CASCADE,
  source_type text NOT NULL,
  organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  identifier text,
  findings jsonb NOT NULL,
  hash text NOT NULL,
  run_id uuid REFERENCES check_runs (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (item_id, source_type)
);
CREATE INDEX finding_snapshots_batch_idx
  ON finding_snapshots (organisation_id, source_type, identifier) INCLUDE (item_id, hash);

CREATE TABLE monitoring_events (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  item_id uuid NOT NULL REFERENCES monitoring_items (id) ON DELETE CASCADE,
  run_id uuid NOT NULL REFERENCES check_runs (id) ON DELETE CASCADE,
  source_type text NOT NULL,
  event_type text NOT NULL,
  severity text NOT NULL CHECK (severity IN ('low', 'medium', 'high', 'critical')),
  finding_key text NOT NULL,
  before jsonb,
  after jsonb,
  first_check boolean NOT NULL DEFAULT false,
  demo boolean NOT NULL DEFAULT false,
  detected_at timestamptz NOT NULL DEFAULT now(),
  read_at timestamptz,
  read_by uuid REFERENCES users (id) ON DELETE SET NULL,
  -- A batch that runs twice inserts the same rows again: the key makes the second insert a no-op.
  UNIQUE (run_id, item_id, source_type, event_type, finding_key)
);
CREATE INDEX monitoring_events_org_detected_idx ON monitoring_events (organisation_id, detected_at DESC, id DESC);
CREATE INDEX monitoring_events_item_idx ON monitoring_events (item_id, detected_at DESC);
CREATE INDEX monitoring_events_unread_idx ON monitoring_events (organisation_id) WHERE read_at IS NULL;

-- Human-readable one-time check numbers, sequential per organisation and year (ПР-2026-000123).
CREATE TABLE one_time_check_counters (
  organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  year integer NOT NULL,
  last_value integer NOT NULL,
  PRIMARY KEY (organisation_id, year)
);

CREATE TABLE one_time_checks (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  number text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('vin', 'document')),
  document_type text,
  identifier text NOT NULL,
  decoded jsonb,
  warnings jsonb NOT NULL DEFAULT '[]'::jsonb,
  status text NOT NULL CHECK (status IN ('completed', 'partial', 'failed')),
  findings_count integer NOT NULL DEFAULT 0,
  demo boolean NOT NULL DEFAULT false,
  -- [{type, name, adapter, status, findings, error, durationMs, datasetVersion, fromCache}]
  sources jsonb NOT NULL,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_by_name text NOT NULL,
  duration_ms integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organisation_id, number)
);
CREATE INDEX one_time_checks_org_created_idx ON one_time_checks (organisation_id, created_at DESC, id);
CREATE INDEX one_time_checks_identifier_idx ON one_time_checks (organisation_id, identifier);
