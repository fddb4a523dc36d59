-- The monitored portfolio (vehicles by VIN, pledgors by document) and file uploads.

CREATE TABLE uploads (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  -- items: a portfolio file (/monitoring/upload); pledge_events: a file of pledge events (/pledges/upload-events)
  kind text NOT NULL CHECK (kind IN ('items', 'pledge_events')),
  file_name text NOT NULL,
  file_size bigint NOT NULL DEFAULT 0,
  -- received → validating → validated (preview, waits for confirmation) → importing → done | done_with_errors
  -- any step → failed; validated → cancelled
  status text NOT NULL DEFAULT 'received'
    CHECK (status IN ('received', 'validating', 'validated', 'importing', 'done', 'done_with_errors', 'failed', 'cancelled')),
  rows_total integer NOT NULL DEFAULT 0,
  rows_processed integer NOT NULL DEFAULT 0,
  rows_accepted integer NOT NULL DEFAULT 0,
  rows_duplicate integer NOT NULL DEFAULT 0,
  rows_rejected integer NOT NULL DEFAULT 0,
  -- archived items that the upload put back on monitoring
  rows_restored integer NOT NULL DEFAULT 0,
  -- import right after validation, without waiting for the user's confirmation
  auto_confirm boolean NOT NULL DEFAULT false,
  error_message text,
  details jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX uploads_org_created_idx ON uploads (organisation_id, created_at DESC);

CREATE TABLE monitoring_items (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('vin', 'document')),
  -- NULL for VINs; for documents one of the identifier package's DOCUMENT_TYPES
  document_type text CHECK (
    document_type IN ('passport_rf', 'driving_licence', 'pts', 'epts', 'sts', 'inn', 'ogrn', 'ogrnip')
  ),
  -- normalised form (upper-case VIN; digits and upper-case Cyrillic letters for documents)
  identifier text NOT NULL,
  label text,
  contract_number text,
  pledgor_name text,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused', 'archived')),
  origin text NOT NULL CHECK (origin IN ('form', 'upload', 'pledge', 'demo')),
  upload_id uuid REFERENCES uploads (id) ON DELETE SET NULL,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  archived_at timestamptz,
  last_checked_at timestamptz,
  CHECK ((kind = 'vin') = (document_type IS NULL))
);
-- One item per identifier per organisation; re-adding an archived item restores it.
-- Identifier before the document type, so the same index serves the list sorted by identifier.
CREATE UNIQUE INDEX monitoring_items_identity_key
  ON monitoring_items (organisation_id, kind, identifier, coalesce(document_type, ''));
-- Checks look items up by identifier across organisations (e.g. another creditor's pledge on a VIN).
CREATE INDEX monitoring_items_identifier_idx ON monitoring_items (identifier);
-- One index per sort of the portfolio list (identifier: the identity key above), so a page is an index
-- range scan at a million items.
CREATE INDEX monitoring_items_created_idx ON monitoring_items (organisation_id, kind, created_at, id);
CREATE INDEX monitoring_items_status_created_idx
  ON monitoring_items (organisation_id, kind, status, created_at, id);
CREATE INDEX monitoring_items_sort_label_idx ON monitoring_items (organisation_id, kind, label, id);
CREATE INDEX monitoring_items_sort_contract_idx
  ON monitoring_items (organisation_id, kind, contract_number, id);
CREATE INDEX monitoring_items_sort_checked_idx
  ON monitoring_items (organisation_id, kind, last_checked_at, id);
-- Case-insensitive substring search over identifier, label and contract number (one trigram index).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX monitoring_items_search_idx ON monitoring_items USING gin (
  (lower(identifier || ' ' || coalesce(label, '') || ' ' || coalesce(contract_number, ''))) gin_trgm_ops
);
