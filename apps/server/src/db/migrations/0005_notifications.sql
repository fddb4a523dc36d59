-- Notification rules, the events waiting for a digest, and one delivery row per message sent
-- (or to be sent) to one recipient, with its status and tries.

CREATE TABLE notification_rules (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  enabled boolean NOT NULL DEFAULT true,
  -- empty = every event type
  event_types text[] NOT NULL DEFAULT '{}',
  min_severity text NOT NULL DEFAULT 'low' CHECK (min_severity IN ('low', 'medium', 'high', 'critical')),
  -- case-insensitive "contains" filters on the item; NULL = any
  item_label text,
  item_contract text,
  method text NOT NULL CHECK (method IN ('email', 'webhook', 'telegram')),
  recipients text[] NOT NULL DEFAULT '{}',
  -- webhook {url, secret}; telegram {botToken, chatId}. Secrets leave the server only masked.
  config jsonb NOT NULL DEFAULT '{}'::jsonb,
  mode text NOT NULL DEFAULT 'instant' CHECK (mode IN ('instant', 'daily', 'run')),
  -- Moscow hour of the daily digest
  digest_hour smallint NOT NULL DEFAULT 9 CHECK (digest_hour BETWEEN 0 AND 23),
  -- Moscow date of the last daily digest (sent or found empty)
  last_digest_on date,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  updated_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notification_rules_org_idx ON notification_rules (organisation_id, created_at, id);

-- Events matched by a digest rule, waiting for the next digest of that rule (daily or per run).
CREATE TABLE notification_digest_items (
  rule_id uuid NOT NULL REFERENCES notification_rules (id) ON DELETE CASCADE,
  event_id uuid NOT NULL REFERENCES monitoring_events (id) ON DELETE CASCADE,
  run_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rule_id, event_id)
);
CREATE INDEX notification_digest_items_run_idx ON notification_digest_items (run_id, rule_id);

CREATE TABLE notification_deliveries (
  -- also the idempotency key the receiver sees (Idempotency-Key header, e-mail Message-ID)
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  rule_id uuid REFERENCES notification_rules (id) ON DELETE SET NULL,
  -- kept when the rule is deleted, so the log still reads
  rule_name text NOT NULL,
  method text NOT NULL CHECK (method IN ('email', 'webhook', 'telegram')),
  recipient text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('event', 'digest', 'test')),
  event_ids uuid[] NOT NULL DEFAULT '{}',
  -- one delivery per rule, event (or digest period / run) and recipient, however often it is matched
  dedupe_key text NOT NULL UNIQUE,
  -- queued → sending → sent; a failed try → retrying → sending …; the last failed try → failed
  status text NOT NULL DEFAULT 'queued'
    CHECK (status IN ('queued', 'sending', 'retrying', 'sent', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL,
  last_error text,
  -- while a worker sends, no other worker takes the delivery; an expired lease means the worker died
  lease_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_attempt_at timestamptz,
  sent_at timestamptz
);
CREATE INDEX notification_deliveries_org_idx ON notification_deliveries (organisation_id, created_at DESC, id DESC);
CREATE INDEX notification_deliveries_rule_idx ON notification_deliveries (rule_id, created_at DESC);
CREATE INDEX notification_deliveries_status_idx ON notification_deliveries (organisation_id, status, created_at DESC);
