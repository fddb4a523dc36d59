-- A regular run skips the matching it has already done (issue #15). A batch's match of a dataset
-- source is a function of three inputs: the batch's items (ids, identifiers, document types), the
-- source's records (its active import) and, for `pledges`, the pledge registry of every tenant.
-- After a batch matched a source it records what it matched against (check_source_fingerprints);
-- a later batch over the same range with the same items and the same input versions would find
-- exactly the snapshots it holds, raise no event, and skips the match (docs/performance.md).

-- Input versions a match depends on, raised by every statement that changes them. A row lock, not a
-- sequence: a reader must never see a version whose change has not committed (a sequence's value
-- runs ahead of the commits). `records:<type>` for each source's records, `pledge_registry` for
-- the tenants' registrations.
CREATE TABLE check_input_versions (
  name text PRIMARY KEY,
  version bigint NOT NULL DEFAULT 0
);
INSERT INTO check_input_versions (name)
SELECT 'records:' || t FROM unnest(ARRAY['pledges', 'wanted', 'restrictions', 'registration', 'accidents',
                                         'bankruptcy', 'enforcement', 'passport']) AS t
UNION ALL SELECT 'pledge_registry';

-- A statement on source_records raises its type's version when the writer named the type
-- (`pledgewatch.source_records_type`, set by the import) and every type's when it did not
-- (a hand-written statement, a fixture): never too few.
CREATE FUNCTION raise_check_input_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  records_type text := nullif(current_setting('pledgewatch.source_records_type', true), '');
BEGIN
  IF TG_TABLE_NAME = 'source_records' THEN
    UPDATE check_input_versions SET version = version + 1
     WHERE name LIKE 'records:%' AND (records_type IS NULL OR name = 'records:' || records_type);
  ELSE
    UPDATE check_input_versions SET version = version + 1 WHERE name = 'pledge_registry';
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER source_records_raise_check_input_version
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON source_records
  FOR EACH STATEMENT EXECUTE FUNCTION raise_check_input_version();
CREATE TRIGGER pledges_raise_check_input_version
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON pledges
  FOR EACH STATEMENT EXECUTE FUNCTION raise_check_input_version();
CREATE TRIGGER pledge_vehicles_raise_check_input_version
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON pledge_vehicles
  FOR EACH STATEMENT EXECUTE FUNCTION raise_check_input_version();

-- What a batch last matched a dataset source against: one row per organisation, source, kind and
-- identifier range (ranges of one source never overlap: a new one removes those it overlaps).
CREATE TABLE check_source_fingerprints (
  organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  source_type text NOT NULL,
  kind text NOT NULL,
  identifier_from text NOT NULL,
  identifier_to text NOT NULL,
  -- The source's active import and input versions, read before the match.
  input_version text NOT NULL,
  -- md5 of the matched items (id, identifier, document type) in identifier order.
  items_hash text NOT NULL,
  items integer NOT NULL,
  findings integer NOT NULL,
  matched_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organisation_id, source_type, kind, identifier_from, identifier_to)
);
