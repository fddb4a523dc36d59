-- Uploads whose columns the user maps (issue #25): an upload whose file names no identifier column,
-- or two columns for one field, waits in needs_mapping until POST /monitoring/uploads/{id}/mapping.
ALTER TABLE uploads DROP CONSTRAINT uploads_status_check;
ALTER TABLE uploads ADD CONSTRAINT uploads_status_check CHECK (status IN (
  'received', 'needs_mapping', 'validating', 'validated', 'importing', 'done', 'done_with_errors', 'failed',
  'cancelled'
));

-- The mapping an organisation chose for files with a given header, applied to the next such file
-- (shown in its preview, where it can be changed). Keyed by the header's fingerprint: the kind and
-- each column's normalised name in order (uploads/header/find-header.ts headerSignature).
CREATE TABLE upload_column_mappings (
  organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('items', 'pledge_events')),
  signature text NOT NULL,
  -- the field of each file column in order, null for a column not loaded
  fields jsonb NOT NULL,
  updated_by uuid REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organisation_id, kind, signature)
);
