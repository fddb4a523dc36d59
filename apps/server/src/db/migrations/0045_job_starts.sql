-- Every start of a background job, with the process that ran it (issue #27). A start that never
-- finished and whose process is gone is a run that ended its process (a crash, an out-of-memory
-- exit, a kill): jobs/job-starts.ts quarantines a job with two of them instead of retrying it
-- again, and the fault suite counts retries from these rows. A process is alive while it holds the
-- session advisory lock (JOB_PROCESS_LOCK_CLASS, process_key) on its own connection.
CREATE TABLE job_starts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  queue text NOT NULL,
  job_id uuid NOT NULL,
  process_key integer NOT NULL,
  -- host and pid, for an operator reading the table.
  process_label text NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  outcome text CHECK (outcome IN ('done', 'failed', 'stopped', 'quarantined')),
  CHECK ((finished_at IS NULL) = (outcome IS NULL))
);
CREATE INDEX job_starts_job_id ON job_starts (job_id);
CREATE INDEX job_starts_started_at ON job_starts (started_at);
