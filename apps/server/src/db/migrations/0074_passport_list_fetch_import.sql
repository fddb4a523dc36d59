-- The import a download of the list became (0073's source_list_fetches): the next daily fetch
-- treats the file as unchanged only if that import did not fail, so a refused or broken download is
-- fetched again rather than skipped for as long as the MVD serves the same file.
ALTER TABLE source_list_fetches ADD COLUMN import_id uuid REFERENCES source_imports (id) ON DELETE SET NULL;
