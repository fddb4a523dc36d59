-- Items search (issue #15). The text searched is stored once per row instead of being recomputed:
-- a frequent term's matches are re-checked row by row after the trigram index (the index only says
-- "has these trigrams"), and lower() over the concatenation cost ~1.7 µs a row — most of the
-- 200,000-match page. Same text, same matches as the expression index it replaces.
ALTER TABLE monitoring_items ADD COLUMN search_text text GENERATED ALWAYS AS (
  lower(identifier || ' ' || coalesce(label, '') || ' ' || coalesce(contract_number, ''))
) STORED;

-- Imports do not wait for the trigram index: new entries go to the index's pending list (a plain
-- append, about half the cost of placing each trigram in its posting tree) and the upload's import
-- job merges the list right after its commit (gin_clean_pending_list; autovacuum does it too).
-- Searches stay complete meanwhile: a search reads the pending list as well, only slower until the
-- merge is done (seconds after a million-row import, see docs/performance.md).
CREATE INDEX monitoring_items_search_text_idx ON monitoring_items USING gin (search_text gin_trgm_ops)
  WITH (fastupdate = on, gin_pending_list_limit = 2000000);
DROP INDEX monitoring_items_search_idx;

-- The statistics label dictionary gets one entry per distinct label of an import (a million for a
-- portfolio of "<model> №i" labels): the same deferral for its trigram index.
ALTER INDEX statistics_labels_search_idx SET (fastupdate = on, gin_pending_list_limit = 2000000);
