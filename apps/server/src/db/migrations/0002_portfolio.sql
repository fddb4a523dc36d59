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

-- Time-ordered UUIDs (version 7 layout: 48-bit Unix milliseconds, then random bits). PostgreSQL 18 has
-- uuidv7(), 15–17 do not. New rows land at the right edge of the primary key and of every index that
-- ends in id, instead of on a random page each: a million-row import stays in cache.
CREATE FUNCTION pw_uuid_v7() RETURNS uuid LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
  SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) PLACING
    substring(int8send((extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3) FROM 1 FOR 6), 52, 1), 53, 1),
    'hex')::uuid
$$;

CREATE TABLE monitoring_items (
  id uuid PRIMARY KEY DEFAULT pw_uuid_v7(),
  -- The one foreign key checked per inserted row (a million checks cost ~5 s of an import); the
  -- provenance columns below are kept consistent by triggers on their parent tables instead.
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
  -- uploads (id) and users (id), ON DELETE SET NULL by the triggers below (written only by the server
  -- from its own upload and session rows)
  upload_id uuid,
  created_by uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  archived_at timestamptz,
  -- As written with the row (the demo seed, imports of checked items); the current value is
  -- monitoring_item_checks.last_checked_at, which a check run updates (see that table).
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
-- range scan at a million items. The status filter is applied on the way (most items are active);
-- the paused and archived views have their own small partial index.
CREATE INDEX monitoring_items_created_idx ON monitoring_items (organisation_id, kind, created_at, id);
CREATE INDEX monitoring_items_inactive_idx
  ON monitoring_items (organisation_id, kind, status, created_at, id) WHERE status <> 'active';
CREATE INDEX monitoring_items_sort_label_idx ON monitoring_items (organisation_id, kind, label, id);
-- Contract numbers sort byte-wise: cheaper comparisons, and the order of "КД-2024/…" codes is the same.
CREATE INDEX monitoring_items_sort_contract_idx
  ON monitoring_items (organisation_id, kind, (contract_number COLLATE "C"), id);
-- Case-insensitive substring search over identifier, label and contract number (one trigram index).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX monitoring_items_search_idx ON monitoring_items USING gin (
  (lower(identifier || ' ' || coalesce(label, '') || ' ' || coalesce(contract_number, ''))) gin_trgm_ops
);

-- ON DELETE SET NULL for the provenance columns (no application path deletes uploads or users today).
CREATE FUNCTION monitoring_items_forget_upload() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE monitoring_items SET upload_id = NULL WHERE upload_id = OLD.id;
  RETURN NULL;
END $$;
CREATE TRIGGER uploads_forget_items AFTER DELETE ON uploads
  FOR EACH ROW EXECUTE FUNCTION monitoring_items_forget_upload();
CREATE FUNCTION monitoring_items_forget_user() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE monitoring_items SET created_by = NULL WHERE created_by = OLD.id;
  RETURN NULL;
END $$;
CREATE TRIGGER users_forget_items AFTER DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION monitoring_items_forget_user();

-- Exact item counts per organisation × kind × status, so the unfiltered list total is not a count(*)
-- over a million rows. Append-only deltas written by the triggers below in the transaction that
-- changes the items (no hot row to lock: an import does not block hand entry); the list sums the
-- organisation's few rows and folds them into one per status now and then
-- (compact_monitoring_item_counts).
CREATE TABLE monitoring_item_counts (
  organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  kind text NOT NULL,
  status text NOT NULL,
  items bigint NOT NULL
);
CREATE INDEX monitoring_item_counts_org_idx ON monitoring_item_counts (organisation_id, kind, status);

-- Statement level for inserts (an import adds a million rows in one statement: one delta per group).
CREATE FUNCTION monitoring_items_count_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO monitoring_item_counts (organisation_id, kind, status, items)
  SELECT organisation_id, kind, status, count(*) FROM new_rows GROUP BY 1, 2, 3;
  RETURN NULL;
END $$;
CREATE TRIGGER monitoring_items_count_insert AFTER INSERT ON monitoring_items
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION monitoring_items_count_inserted();

-- Skips an organisation that is itself being deleted (its counts go with it).
CREATE FUNCTION monitoring_items_count_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO monitoring_item_counts (organisation_id, kind, status, items)
  SELECT d.organisation_id, d.kind, d.status, -count(*) FROM old_rows d
   WHERE EXISTS (SELECT 1 FROM organisations o WHERE o.id = d.organisation_id)
   GROUP BY 1, 2, 3;
  RETURN NULL;
END $$;
CREATE TRIGGER monitoring_items_count_delete AFTER DELETE ON monitoring_items
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION monitoring_items_count_deleted();

-- Row level and only when the status (or the kind) really changes: the checks engine's
-- last_checked_at updates of every item do not pay for it.
CREATE FUNCTION monitoring_items_count_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO monitoring_item_counts (organisation_id, kind, status, items)
  VALUES (OLD.organisation_id, OLD.kind, OLD.status, -1), (NEW.organisation_id, NEW.kind, NEW.status, 1);
  RETURN NULL;
END $$;
CREATE TRIGGER monitoring_items_count_update AFTER UPDATE OF status, kind, organisation_id ON monitoring_items
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.kind IS DISTINCT FROM NEW.kind
                     OR OLD.organisation_id IS DISTINCT FROM NEW.organisation_id)
  EXECUTE FUNCTION monitoring_items_count_updated();

-- Folds an organisation's deltas into one row per kind × status. Safe beside concurrent writers:
-- deltas they have not committed yet are not seen, so not deleted, and are summed later.
CREATE FUNCTION compact_monitoring_item_counts(org uuid) RETURNS void LANGUAGE sql AS $$
  WITH gone AS (
    DELETE FROM monitoring_item_counts WHERE organisation_id = org RETURNING kind, status, items
  )
  INSERT INTO monitoring_item_counts (organisation_id, kind, status, items)
  SELECT org, kind, status, sum(items) FROM gone GROUP BY kind, status HAVING sum(items) <> 0;
$$;

-- When each item was last checked: one narrow row per item (NULL until its first check), kept by the
-- triggers below and updated by every check batch for its items. Outside monitoring_items because a
-- run stamps every item of the portfolio: there each stamp rewrote a wide row and all of its indexes
-- (trigram included), ~0.7 s per 10,000 items, most of a run's time; here it is a narrow row and two
-- indexes. Its sort index serves the list sorted by last check (monitoring.queries.ts).
CREATE TABLE monitoring_item_checks (
  item_id uuid PRIMARY KEY,
  organisation_id uuid NOT NULL,
  kind text NOT NULL,
  last_checked_at timestamptz
);
CREATE INDEX monitoring_item_checks_sort_idx
  ON monitoring_item_checks (organisation_id, kind, last_checked_at, item_id);

-- Statement level, like the counts: one insert per import statement.
CREATE FUNCTION monitoring_item_checks_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO monitoring_item_checks (item_id, organisation_id, kind, last_checked_at)
  SELECT id, organisation_id, kind, last_checked_at FROM new_rows;
  RETURN NULL;
END $$;
CREATE TRIGGER monitoring_item_checks_insert AFTER INSERT ON monitoring_items
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION monitoring_item_checks_inserted();

CREATE FUNCTION monitoring_item_checks_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM monitoring_item_checks c USING old_rows d WHERE c.item_id = d.id;
  RETURN NULL;
END $$;
CREATE TRIGGER monitoring_item_checks_delete AFTER DELETE ON monitoring_items
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION monitoring_item_checks_deleted();

-- A write of monitoring_items.last_checked_at itself (a fixture, a data fix) is the item's last check too.
CREATE FUNCTION monitoring_item_checks_stamped() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE monitoring_item_checks SET last_checked_at = NEW.last_checked_at WHERE item_id = NEW.id;
  RETURN NULL;
END $$;
CREATE TRIGGER monitoring_item_checks_stamp AFTER UPDATE OF last_checked_at ON monitoring_items
  FOR EACH ROW WHEN (OLD.last_checked_at IS DISTINCT FROM NEW.last_checked_at)
  EXECUTE FUNCTION monitoring_item_checks_stamped();
