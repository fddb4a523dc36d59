-- Where a running upload's import puts its rows in the items list's creation order (issue #31).
-- An import inserts every row of an upload in one transaction; until it commits, its rows sit at
-- the top of monitoring_items_created_idx, invisible to everyone else, and every newest-first page
-- (and a frequent term's walk of that order) checked each of them in the table and skipped it:
-- 100,000 held rows made a 0.2 ms page cost 17-250 ms.
--
-- Before its transaction, an import registers the key range its rows will take, and commits that:
-- one creation time and a block of ids no other row takes (a UUIDv7 of that moment with the low 62
-- bits a counter from zero). The transaction writes its rows inside the range and deletes the
-- range's row, so in any snapshot the range is listed exactly while its rows are not visible, and
-- the list walks around it (monitoring/items-created-order.queries.ts). A range left by an import
-- that rolled back covers only dead rows; the next import of the upload replaces it.
CREATE TABLE monitoring_item_import_ranges (
  upload_id uuid PRIMARY KEY REFERENCES uploads (id) ON DELETE CASCADE,
  organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  first_id uuid NOT NULL,
  last_id uuid NOT NULL,
  CHECK (first_id <= last_id)
);
CREATE INDEX monitoring_item_import_ranges_org_idx ON monitoring_item_import_ranges (organisation_id, created_at);

-- The first id of a new range: a UUIDv7 of this moment (48-bit milliseconds, version, 12 random
-- bits) whose low 64 bits are the variant and zeros; the range is every id with the same high 64 bits.
CREATE FUNCTION pw_import_range_first_id() RETURNS uuid LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
  SELECT encode(overlay(uuid_send(pw_uuid_v7()) PLACING '\x8000000000000000'::bytea FROM 9 FOR 8), 'hex')::uuid
$$;

-- The n-th id of the range that starts at `first` (n from 0 to 2^62 - 1): ids in the order of n,
-- so an import's rows still land at the right edge of the primary key.
CREATE FUNCTION pw_import_range_id(first uuid, n bigint) RETURNS uuid LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT encode(overlay(uuid_send(first) PLACING int8send(n - 9223372036854775807 - 1) FROM 9 FOR 8), 'hex')::uuid
$$;

-- The last id of the range that starts at `first`.
CREATE FUNCTION pw_import_range_last_id(first uuid) RETURNS uuid LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT pw_import_range_id(first, 4611686018427387903)
$$;
