-- Sign-in throttling per account and address, and throttles for password change, e-mail change
-- and invitations (docs/security.md, "Sign-in, throttling and passwords").

ALTER TABLE auth_attempts DROP CONSTRAINT IF EXISTS auth_attempts_kind_check;
ALTER TABLE auth_attempts ADD CONSTRAINT auth_attempts_kind_check
  CHECK (kind IN ('login', 'reset', 'password_change', 'email_change', 'invite'));

-- "Has this account signed in from this address before?" looks for successes only.
CREATE INDEX auth_attempts_success_idx ON auth_attempts (kind, key, created_at) WHERE succeeded;
