-- Integration channel (issue #26): API keys for a bank's own systems, and idempotent creating POSTs.
--
-- Each key acts through a service account: a users row of its organisation that cannot sign in
-- (no password, hidden from the users list and from sign-in and reset by e-mail). Everything a key
-- writes (created_by, audit actor, one-time check author) names it like a person, under the key's
-- name, with no second code path for "who did this".
ALTER TABLE users ADD COLUMN service_account boolean NOT NULL DEFAULT false;

CREATE TABLE api_keys (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  -- The service account the key acts as.
  user_id uuid NOT NULL UNIQUE REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL,
  role text NOT NULL CHECK (role IN ('admin', 'analyst', 'viewer')),
  -- The first characters of the key, shown in the list to tell keys apart; the secret is only hashed.
  prefix text NOT NULL,
  secret_hash text NOT NULL UNIQUE,
  rate_limit_per_minute integer NOT NULL CHECK (rate_limit_per_minute > 0),
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz,
  last_used_at timestamptz,
  revoked_at timestamptz,
  revoked_by uuid REFERENCES users (id) ON DELETE SET NULL
);
CREATE INDEX api_keys_organisation ON api_keys (organisation_id, created_at DESC);

-- The first answer to a creating POST sent with an Idempotency-Key, per organisation, for 24 hours:
-- a retry with the same key and body gets that answer again and creates nothing. A row without a
-- status is a request still running (a concurrent retry waits for it to finish: 409).
CREATE TABLE idempotency_keys (
  organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  key text NOT NULL,
  method text NOT NULL,
  route text NOT NULL,
  request_hash text NOT NULL,
  status integer,
  response_body text,
  content_type text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organisation_id, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
