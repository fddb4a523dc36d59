-- Working tables of the upload pipeline: accepted rows wait here between validation and import,
-- rejected rows stay for the error file.

-- Unlogged: written once by COPY and thrown away after the import. A crash empties it; the import
-- then sees fewer rows than validation counted and fails the upload instead of importing part of it.
CREATE UNLOGGED TABLE upload_item_rows (
  upload_id uuid NOT NULL,
  row_number integer NOT NULL,
  kind text NOT NULL,
  document_type text,
  identifier text NOT NULL,
  label text,
  contract_number text,
  pledgor_name text,
  -- a check-digit warning and the like: the row is accepted
  warning text
);
CREATE INDEX upload_item_rows_upload_idx ON upload_item_rows (upload_id, row_number);

CREATE TABLE upload_errors (
  upload_id uuid NOT NULL REFERENCES uploads (id) ON DELETE CASCADE,
  row_number integer NOT NULL,
  -- the column the reason is about (template field name), NULL for the row as a whole
  field text,
  message text NOT NULL,
  -- the row's values in the order of the kind's template columns, as they stood in the file
  raw text[] NOT NULL DEFAULT '{}'
);
CREATE INDEX upload_errors_upload_idx ON upload_errors (upload_id, row_number);
CREATE INDEX uploads_org_kind_status_idx ON uploads (organisation_id, kind, status, created_at DESC);
