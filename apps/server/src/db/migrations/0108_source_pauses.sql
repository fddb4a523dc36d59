-- A provider's Retry-After, held by every app and worker process (modules/checks/sources/
-- remote-source.ts, request-budget.ts): one process's 429 stops the others sending to that provider
-- account until the pause ends, as each refused request is counted and may be paid.

-- One row per provider account: `account` is the hex SHA-256 of the provider's address and token
-- (never the token in clear). countRequest reads the row in its own statement and counts nothing
-- while paused_until (the database's clock) is ahead; a 429 moves it forward, never back. One row
-- per configured account ever paused: nothing to clean.
CREATE TABLE source_pauses (
  account text PRIMARY KEY,
  paused_until timestamptz NOT NULL
);
