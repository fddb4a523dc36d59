-- The last item a run may ask a remote source with a daily limit about (check-batch.service.ts),
-- fixed when the run is planned: the run's items that need a request, in priority order (never
-- answered by the source first, then the oldest answer; source_cache.fetched_at), are asked up to
-- the requests left that day; items after this one wait for the next day and stay due (their check
-- stamp is left as it was). No row: the run may ask about every item.
CREATE TABLE check_run_source_cutoffs (
  run_id uuid NOT NULL REFERENCES check_runs (id) ON DELETE CASCADE,
  source_type text NOT NULL,
  answered_at timestamptz NOT NULL,
  identifier text NOT NULL,
  document_type text NOT NULL,
  PRIMARY KEY (run_id, source_type)
);
