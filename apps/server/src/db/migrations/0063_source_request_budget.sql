-- The request budget of remote sources (modules/checks/sources/request-budget.ts), shared by every
-- app and worker process through the database.

-- The next free send time of each source type: taking a request advances it by one interval
-- (1 / SOURCE_<TYPE>_RATE_LIMIT s) in one UPDATE … RETURNING, so the processes together never send
-- more than the limit in any second.
CREATE TABLE source_rate_slots (
  source_type text PRIMARY KEY,
  next_slot timestamptz NOT NULL
);

-- Requests sent to each source and their cost, per Moscow day: SOURCE_<TYPE>_DAILY_LIMIT is counted
-- here (a request is taken only while requests < the limit), and the sources screen and the spend
-- chart read requests and spend (roubles, SOURCE_<TYPE>_PRICE each at the time of the request).
CREATE TABLE source_request_days (
  source_type text NOT NULL,
  day date NOT NULL,
  requests integer NOT NULL DEFAULT 0 CHECK (requests >= 0),
  spend numeric(14, 2) NOT NULL DEFAULT 0,
  PRIMARY KEY (source_type, day)
);
