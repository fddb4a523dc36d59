-- The MVD list of invalid passports (issue #30): the `passport` source's data is no longer rows of
-- source_records but one compact table per version, `passport_list_<import id without dashes>`
-- (block int PRIMARY KEY, numbers int2[]): a passport's 10 digits as one number k, the row
-- k / 10000 holding every listed k % 10000 in order (docs/datasets.md, «Перечень недействительных
-- паспортов»). The import (checks/passport-list/) creates, fills and indexes that table while the
-- active version keeps answering, then switches source_imports in one transaction and drops the
-- old version's table. These tables are made at run time, so they are not in this file.

-- A queued or running import, and what the sources screen shows of it: the file on disk (deleted
-- when the import ends), the phase and its counters.
ALTER TABLE source_imports
  ADD COLUMN file_path text,
  ADD COLUMN phase text CHECK (phase IN ('queued', 'downloading', 'loading', 'indexing', 'switching')),
  ADD COLUMN bytes_read bigint NOT NULL DEFAULT 0,
  ADD COLUMN bytes_total bigint,
  ADD COLUMN rows_read bigint NOT NULL DEFAULT 0,
  -- The Russian reason a failed import was refused.
  ADD COLUMN failure text,
  -- The table holding this version's data, for sources stored outside source_records.
  ADD COLUMN storage_table text,
  -- Demonstration data (the demo seed): a list has no per-record payload to say so, its version does.
  ADD COLUMN demo boolean NOT NULL DEFAULT false;

-- The published list's address (SOURCE_PASSPORT_LIST_URL) as last seen by the daily fetch: what a
-- conditional request sends (ETag, Last-Modified) and compares (Content-Length).
CREATE TABLE source_list_fetches (
  source_type text PRIMARY KEY,
  url text NOT NULL,
  etag text,
  last_modified text,
  content_length bigint,
  checked_at timestamptz,
  changed_at timestamptz,
  -- The Russian reason of the last failed fetch; null after a good one.
  last_error text
);
