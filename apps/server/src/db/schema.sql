-- Generated from the catalogs of a database migrated to the newest migration; do not edit.
-- Regenerate: npm run db:schema

CREATE EXTENSION pg_trgm;

CREATE TYPE pw_identifier_range AS RANGE (subtype = text);

CREATE SEQUENCE monitoring_item_revision_marks;

CREATE TABLE api_keys (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  organisation_id uuid NOT NULL,
  user_id uuid NOT NULL,
  name text NOT NULL,
  role text NOT NULL,
  prefix text NOT NULL,
  secret_hash text NOT NULL,
  rate_limit_per_minute integer NOT NULL,
  created_by uuid,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  expires_at timestamp with time zone,
  last_used_at timestamp with time zone,
  revoked_at timestamp with time zone,
  revoked_by uuid
);
ALTER TABLE api_keys ADD CONSTRAINT api_keys_created_by_fkey FOREIGN KEY (created_by) REFERENCES users(id) ON DELETE SET NULL;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_organisation_id_fkey FOREIGN KEY (organisation_id) REFERENCES organisations(id) ON DELETE CASCADE;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_pkey PRIMARY KEY (id);
ALTER TABLE api_keys ADD CONSTRAINT api_keys_rate_limit_per_minute_check CHECK (rate_limit_per_minute > 0);
ALTER TABLE api_keys ADD CONSTRAINT api_keys_revoked_by_fkey FOREIGN KEY (revoked_by) REFERENCES users(id) ON DELETE SET NULL;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_role_check CHECK (role = ANY (ARRAY['admin'::text, 'analyst'::text, 'viewer'::text]));
ALTER TABLE api_keys ADD CONSTRAINT api_keys_secret_hash_key UNIQUE (secret_hash);
ALTER TABLE api_keys ADD CONSTRAINT api_keys_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_user_id_key UNIQUE (user_id);

CREATE TABLE audit_log (
  id bigint DEFAULT nextval('audit_log_id_seq'::regclass) NOT NULL,
  organisation_id uuid,
  user_id uuid,
  action text NOT NULL,
  entity text NOT NULL,
  entity_id text,
  details jsonb DEFAULT '{}'::jsonb NOT NULL,
  created_at timestamp with time zone DEFAULT now() NOT NULL
);
ALTER TABLE audit_log ADD CONSTRAINT audit_log_organisation_id_fkey FOREIGN KEY (organisation_id) REFERENCES organisations(id) ON DELETE CASCADE;
ALTER TABLE audit_log ADD CONSTRAINT audit_log_pkey PRIMARY KEY (id);
ALTER TABLE audit_log ADD CONSTRAINT audit_log_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE SET NULL;

CREATE TABLE auth_attempts (
  id bigint DEFAULT nextval('auth_attempts_id_seq'::regclass) NOT NULL,
  kind text NOT NULL,
  key text NOT NULL,
  succeeded boolean NOT NULL,
  created_at timestamp with time zone DEFAULT now() NOT NULL
);
ALTER TABLE auth_attempts ADD CONSTRAINT auth_attempts_kind_check CHECK (kind = ANY (ARRAY['login'::text, 'reset'::text, 'password_change'::text, 'email_change'::text, 'invite'::text]));
ALTER TABLE auth_attempts ADD CONSTRAINT auth_attempts_pkey PRIMARY KEY (id);

CREATE TABLE check_input_versions (
  name text NOT NULL,
  version bigint DEFAULT 0 NOT NULL
);
ALTER TABLE check_input_versions ADD CONSTRAINT check_input_versions_pkey PRIMARY KEY (name);

CREATE TABLE check_run_batches (
  run_id uuid NOT NULL,
  batch_no integer NOT NULL,
  kind text NOT NULL,
  identifier_from text NOT NULL,
  identifier_to text NOT NULL,
  items integer NOT NULL,
  status text DEFAULT 'queued'::text NOT NULL,
  sources jsonb DEFAULT '{}'::jsonb NOT NULL,
  finished_at timestamp with time zone
);
ALTER TABLE check_run_batches ADD CONSTRAINT check_run_batches_kind_check CHECK (kind = ANY (ARRAY['vin'::text, 'document'::text]));
ALTER TABLE check_run_batches ADD CONSTRAINT check_run_batches_pkey PRIMARY KEY (run_id, batch_no);
ALTER TABLE check_run_batches ADD CONSTRAINT check_run_batches_run_id_fkey FOREIGN KEY (run_id) REFERENCES check_runs(id) ON DELETE CASCADE;
ALTER TABLE check_run_batches ADD CONSTRAINT check_run_batches_status_check CHECK (status = ANY (ARRAY['queued'::text, 'done'::text, 'failed'::text]));

CREATE TABLE check_run_source_cutoffs (
  run_id uuid NOT NULL,
  source_type text NOT NULL,
  answered_at timestamp with time zone NOT NULL,
  identifier text NOT NULL,
  document_type text NOT NULL
);
ALTER TABLE check_run_source_cutoffs ADD CONSTRAINT check_run_source_cutoffs_pkey PRIMARY KEY (run_id, source_type);
ALTER TABLE check_run_source_cutoffs ADD CONSTRAINT check_run_source_cutoffs_run_id_fkey FOREIGN KEY (run_id) REFERENCES check_runs(id) ON DELETE CASCADE;

CREATE TABLE check_runs (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  organisation_id uuid NOT NULL,
  trigger text NOT NULL,
  status text DEFAULT 'queued'::text NOT NULL,
  batch_size integer NOT NULL,
  items_total integer DEFAULT 0 NOT NULL,
  items_done integer DEFAULT 0 NOT NULL,
  batches_total integer DEFAULT 0 NOT NULL,
  batches_done integer DEFAULT 0 NOT NULL,
  events_created integer DEFAULT 0 NOT NULL,
  error text,
  created_by uuid,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  started_at timestamp with time zone,
  finished_at timestamp with time zone,
  item_scope text[],
  items_revision numeric,
  planned_from uuid
);
ALTER TABLE check_runs ADD CONSTRAINT check_runs_created_by_fkey FOREIGN KEY (created_by) REFERENCES users(id) ON DELETE SET NULL;
ALTER TABLE check_runs ADD CONSTRAINT check_runs_organisation_id_fkey FOREIGN KEY (organisation_id) REFERENCES organisations(id) ON DELETE CASCADE;
ALTER TABLE check_runs ADD CONSTRAINT check_runs_pkey PRIMARY KEY (id);
ALTER TABLE check_runs ADD CONSTRAINT check_runs_planned_from_fkey FOREIGN KEY (planned_from) REFERENCES check_runs(id) ON DELETE SET NULL;
ALTER TABLE check_runs ADD CONSTRAINT check_runs_status_check CHECK (status = ANY (ARRAY['queued'::text, 'running'::text, 'completed'::text, 'completed_with_errors'::text, 'failed'::text]));
ALTER TABLE check_runs ADD CONSTRAINT check_runs_trigger_check CHECK (trigger = ANY (ARRAY['manual'::text, 'scheduled'::text, 'pledge_registered'::text]));

CREATE TABLE check_schedules (
  organisation_id uuid NOT NULL,
  enabled boolean DEFAULT true NOT NULL,
  run_at time without time zone NOT NULL,
  last_triggered_on date,
  last_triggered_at timestamp with time zone,
  updated_by uuid,
  updated_at timestamp with time zone DEFAULT now() NOT NULL
);
ALTER TABLE check_schedules ADD CONSTRAINT check_schedules_organisation_id_fkey FOREIGN KEY (organisation_id) REFERENCES organisations(id) ON DELETE CASCADE;
ALTER TABLE check_schedules ADD CONSTRAINT check_schedules_pkey PRIMARY KEY (organisation_id);
ALTER TABLE check_schedules ADD CONSTRAINT check_schedules_updated_by_fkey FOREIGN KEY (updated_by) REFERENCES users(id) ON DELETE SET NULL;

CREATE TABLE check_source_fingerprints (
  organisation_id uuid NOT NULL,
  source_type text NOT NULL,
  kind text NOT NULL,
  identifier_from text NOT NULL,
  identifier_to text NOT NULL,
  input_version text NOT NULL,
  items_hash text NOT NULL,
  items integer NOT NULL,
  findings integer NOT NULL,
  matched_at timestamp with time zone DEFAULT now() NOT NULL,
  items_revision numeric
);
ALTER TABLE check_source_fingerprints ADD CONSTRAINT check_source_fingerprints_organisation_id_fkey FOREIGN KEY (organisation_id) REFERENCES organisations(id) ON DELETE CASCADE;
ALTER TABLE check_source_fingerprints ADD CONSTRAINT check_source_fingerprints_pkey PRIMARY KEY (organisation_id, source_type, kind, identifier_from, identifier_to);

CREATE TABLE email_tokens (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  user_id uuid NOT NULL,
  kind text NOT NULL,
  token_hash text NOT NULL,
  email text NOT NULL,
  expires_at timestamp with time zone NOT NULL,
  used_at timestamp with time zone,
  created_at timestamp with time zone DEFAULT now() NOT NULL
);
ALTER TABLE email_tokens ADD CONSTRAINT email_tokens_kind_check CHECK (kind = ANY (ARRAY['verify_email'::text, 'change_email'::text, 'reset_password'::text, 'invite'::text]));
ALTER TABLE email_tokens ADD CONSTRAINT email_tokens_pkey PRIMARY KEY (id);
ALTER TABLE email_tokens ADD CONSTRAINT email_tokens_token_hash_key UNIQUE (token_hash);
ALTER TABLE email_tokens ADD CONSTRAINT email_tokens_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE;

CREATE TABLE finding_snapshots (
  item_id uuid NOT NULL,
  source_type text NOT NULL,
  organisation_id uuid NOT NULL,
  identifier text,
  findings jsonb NOT NULL,
  hash text NOT NULL,
  run_id uuid,
  updated_at timestamp with time zone DEFAULT now() NOT NULL
);
ALTER TABLE finding_snapshots ADD CONSTRAINT finding_snapshots_item_id_fkey FOREIGN KEY (item_id) REFERENCES monitoring_items(id) ON DELETE CASCADE;
ALTER TABLE finding_snapshots ADD CONSTRAINT finding_snapshots_pkey PRIMARY KEY (item_id, source_type);

CREATE TABLE idempotency_keys (
  organisation_id uuid NOT NULL,
  key text NOT NULL,
  method text NOT NULL,
  route text NOT NULL,
  request_hash text NOT NULL,
  status integer,
  response_body text,
  content_type text,
  created_at timestamp with time zone DEFAULT now() NOT NULL
);
ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_organisation_id_fkey FOREIGN KEY (organisation_id) REFERENCES organisations(id) ON DELETE CASCADE;
ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_pkey PRIMARY KEY (organisation_id, key);

CREATE TABLE job_starts (
  id bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
  queue text NOT NULL,
  job_id uuid NOT NULL,
  process_key integer NOT NULL,
  process_label text NOT NULL,
  started_at timestamp with time zone DEFAULT now() NOT NULL,
  finished_at timestamp with time zone,
  outcome text
);
ALTER TABLE job_starts ADD CONSTRAINT job_starts_check CHECK ((finished_at IS NULL) = (outcome IS NULL));
ALTER TABLE job_starts ADD CONSTRAINT job_starts_outcome_check CHECK (outcome = ANY (ARRAY['done'::text, 'failed'::text, 'stopped'::text, 'quarantined'::text]));
ALTER TABLE job_starts ADD CONSTRAINT job_starts_pkey PRIMARY KEY (id);

CREATE TABLE mail_outbox (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  organisation_id uuid,
  to_address text NOT NULL,
  subject text NOT NULL,
  text_body text NOT NULL,
  html_body text NOT NULL,
  status text DEFAULT 'queued'::text NOT NULL,
  attempts integer DEFAULT 0 NOT NULL,
  last_error text,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  sent_at timestamp with time zone
);
ALTER TABLE mail_outbox ADD CONSTRAINT mail_outbox_organisation_id_fkey FOREIGN KEY (organisation_id) REFERENCES organisations(id) ON DELETE SET NULL;
ALTER TABLE mail_outbox ADD CONSTRAINT mail_outbox_pkey PRIMARY KEY (id);
ALTER TABLE mail_outbox ADD CONSTRAINT mail_outbox_status_check CHECK (status = ANY (ARRAY['queued'::text, 'sent'::text, 'stored'::text, 'failed'::text]));

CREATE TABLE monitoring_check_ranges (
  organisation_id uuid NOT NULL,
  kind text NOT NULL,
  identifiers pw_identifier_range NOT NULL,
  checked_at timestamp with time zone NOT NULL
);
ALTER TABLE monitoring_check_ranges ADD CONSTRAINT monitoring_check_ranges_organisation_id_fkey FOREIGN KEY (organisation_id) REFERENCES organisations(id) ON DELETE CASCADE;

CREATE TABLE monitoring_event_severity_days (
  organisation_id uuid NOT NULL,
  day date NOT NULL,
  event_type text NOT NULL,
  source_type text NOT NULL,
  severity text NOT NULL,
  events integer NOT NULL
);
ALTER TABLE monitoring_event_severity_days ADD CONSTRAINT monitoring_event_severity_days_organisation_id_fkey FOREIGN KEY (organisation_id) REFERENCES organisations(id) ON DELETE CASCADE;
ALTER TABLE monitoring_event_severity_days ADD CONSTRAINT monitoring_event_severity_days_pkey PRIMARY KEY (organisation_id, day, event_type, source_type, severity);

CREATE TABLE monitoring_event_unread_counts (
  organisation_id uuid NOT NULL,
  event_type text NOT NULL,
  source_type text NOT NULL,
  severity text NOT NULL,
  events bigint NOT NULL
);
ALTER TABLE monitoring_event_unread_counts ADD CONSTRAINT monitoring_event_unread_counts_organisation_id_fkey FOREIGN KEY (organisation_id) REFERENCES organisations(id) ON DELETE CASCADE;

CREATE TABLE monitoring_events (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  organisation_id uuid NOT NULL,
  item_id uuid NOT NULL,
  run_id uuid,
  source_type text NOT NULL,
  event_type text NOT NULL,
  severity text NOT NULL,
  finding_key text NOT NULL,
  before jsonb,
  after jsonb,
  first_check boolean DEFAULT false NOT NULL,
  demo boolean DEFAULT false NOT NULL,
  detected_at timestamp with time zone DEFAULT now() NOT NULL,
  read_at timestamp with time zone,
  read_by uuid
);
ALTER TABLE monitoring_events ADD CONSTRAINT monitoring_events_item_id_fkey FOREIGN KEY (item_id) REFERENCES monitoring_items(id) ON DELETE CASCADE;
ALTER TABLE monitoring_events ADD CONSTRAINT monitoring_events_pkey PRIMARY KEY (id);
ALTER TABLE monitoring_events ADD CONSTRAINT monitoring_events_read_by_fkey FOREIGN KEY (read_by) REFERENCES users(id) ON DELETE SET NULL;
ALTER TABLE monitoring_events ADD CONSTRAINT monitoring_events_run_id_item_id_source_type_event_type_fin_key UNIQUE (run_id, item_id, source_type, event_type, finding_key);
ALTER TABLE monitoring_events ADD CONSTRAINT monitoring_events_severity_check CHECK (severity = ANY (ARRAY['low'::text, 'medium'::text, 'high'::text, 'critical'::text]));

CREATE TABLE monitoring_item_checks (
  item_id uuid NOT NULL,
  organisation_id uuid NOT NULL,
  kind text NOT NULL,
  last_checked_at timestamp with time zone,
  identifier text NOT NULL,
  unranged_since timestamp with time zone,
  item_status text NOT NULL
);
ALTER TABLE monitoring_item_checks ADD CONSTRAINT monitoring_item_checks_pkey PRIMARY KEY (item_id);

CREATE TABLE monitoring_item_counts (
  organisation_id uuid NOT NULL,
  kind text NOT NULL,
  status text NOT NULL,
  items bigint NOT NULL
);
ALTER TABLE monitoring_item_counts ADD CONSTRAINT monitoring_item_counts_organisation_id_fkey FOREIGN KEY (organisation_id) REFERENCES organisations(id) ON DELETE CASCADE;

CREATE TABLE monitoring_item_import_ranges (
  upload_id uuid NOT NULL,
  organisation_id uuid NOT NULL,
  created_at timestamp with time zone NOT NULL,
  first_id uuid NOT NULL,
  last_id uuid NOT NULL
);
ALTER TABLE monitoring_item_import_ranges ADD CONSTRAINT monitoring_item_import_ranges_check CHECK (first_id <= last_id);
ALTER TABLE monitoring_item_import_ranges ADD CONSTRAINT monitoring_item_import_ranges_organisation_id_fkey FOREIGN KEY (organisation_id) REFERENCES organisations(id) ON DELETE CASCADE;
ALTER TABLE monitoring_item_import_ranges ADD CONSTRAINT monitoring_item_import_ranges_pkey PRIMARY KEY (upload_id);
ALTER TABLE monitoring_item_import_ranges ADD CONSTRAINT monitoring_item_import_ranges_upload_id_fkey FOREIGN KEY (upload_id) REFERENCES uploads(id) ON DELETE CASCADE;

CREATE TABLE monitoring_item_revisions (
  organisation_id uuid NOT NULL,
  marks numeric DEFAULT nextval('monitoring_item_revision_marks'::regclass) NOT NULL
);
ALTER TABLE monitoring_item_revisions ADD CONSTRAINT monitoring_item_revisions_organisation_id_fkey FOREIGN KEY (organisation_id) REFERENCES organisations(id) ON DELETE CASCADE;

CREATE TABLE monitoring_items (
  id uuid DEFAULT pw_uuid_v7() NOT NULL,
  organisation_id uuid NOT NULL,
  kind text NOT NULL,
  document_type text,
  identifier text NOT NULL,
  label text,
  contract_number text,
  pledgor_name text,
  status text DEFAULT 'active'::text NOT NULL,
  origin text NOT NULL,
  upload_id uuid,
  created_by uuid,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  updated_at timestamp with time zone DEFAULT now() NOT NULL,
  archived_at timestamp with time zone,
  last_checked_at timestamp with time zone,
  search_text text GENERATED ALWAYS AS (lower(((((identifier || ' '::text) || COALESCE(label, ''::text)) || ' '::text) || COALESCE(contract_number, ''::text)))) STORED
);
ALTER TABLE monitoring_items ADD CONSTRAINT monitoring_items_check CHECK ((kind = 'vin'::text) = (document_type IS NULL));
ALTER TABLE monitoring_items ADD CONSTRAINT monitoring_items_document_type_check CHECK (document_type = ANY (ARRAY['passport_rf'::text, 'driving_licence'::text, 'pts'::text, 'epts'::text, 'sts'::text, 'inn'::text, 'ogrn'::text, 'ogrnip'::text]));
ALTER TABLE monitoring_items ADD CONSTRAINT monitoring_items_kind_check CHECK (kind = ANY (ARRAY['vin'::text, 'document'::text]));
ALTER TABLE monitoring_items ADD CONSTRAINT monitoring_items_origin_check CHECK (origin = ANY (ARRAY['form'::text, 'upload'::text, 'pledge'::text, 'demo'::text]));
ALTER TABLE monitoring_items ADD CONSTRAINT monitoring_items_passport_digits CHECK (document_type IS DISTINCT FROM 'passport_rf'::text OR octet_length(identifier) = 10 AND (identifier COLLATE "C") !~ '[^0-9]'::text);
ALTER TABLE monitoring_items ADD CONSTRAINT monitoring_items_pkey PRIMARY KEY (id);
ALTER TABLE monitoring_items ADD CONSTRAINT monitoring_items_status_check CHECK (status = ANY (ARRAY['active'::text, 'paused'::text, 'archived'::text]));

CREATE TABLE news_items (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  title text NOT NULL,
  body text NOT NULL,
  pinned boolean DEFAULT false NOT NULL,
  draft boolean DEFAULT false NOT NULL,
  published_at timestamp with time zone,
  author_id uuid,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  updated_at timestamp with time zone DEFAULT now() NOT NULL
);
ALTER TABLE news_items ADD CONSTRAINT news_items_author_id_fkey FOREIGN KEY (author_id) REFERENCES users(id) ON DELETE SET NULL;
ALTER TABLE news_items ADD CONSTRAINT news_items_body_check CHECK (length(body) >= 1 AND length(body) <= 20000);
ALTER TABLE news_items ADD CONSTRAINT news_items_check CHECK (draft OR published_at IS NOT NULL);
ALTER TABLE news_items ADD CONSTRAINT news_items_pkey PRIMARY KEY (id);
ALTER TABLE news_items ADD CONSTRAINT news_items_title_check CHECK (length(title) >= 1 AND length(title) <= 200);

CREATE TABLE news_reads (
  user_id uuid NOT NULL,
  news_id uuid NOT NULL,
  read_at timestamp with time zone DEFAULT now() NOT NULL
);
ALTER TABLE news_reads ADD CONSTRAINT news_reads_news_id_fkey FOREIGN KEY (news_id) REFERENCES news_items(id) ON DELETE CASCADE;
ALTER TABLE news_reads ADD CONSTRAINT news_reads_pkey PRIMARY KEY (user_id, news_id);
ALTER TABLE news_reads ADD CONSTRAINT news_reads_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE;

CREATE TABLE notification_deliveries (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  organisation_id uuid NOT NULL,
  rule_id uuid,
  rule_name text NOT NULL,
  method text NOT NULL,
  recipient text NOT NULL,
  kind text NOT NULL,
  event_ids uuid[] DEFAULT '{}'::uuid[] NOT NULL,
  dedupe_key text NOT NULL,
  status text DEFAULT 'queued'::text NOT NULL,
  attempts integer DEFAULT 0 NOT NULL,
  max_attempts integer NOT NULL,
  last_error text,
  lease_until timestamp with time zone,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  last_attempt_at timestamp with time zone,
  sent_at timestamp with time zone,
  payload jsonb
);
ALTER TABLE notification_deliveries ADD CONSTRAINT notification_deliveries_dedupe_key_key UNIQUE (dedupe_key);
ALTER TABLE notification_deliveries ADD CONSTRAINT notification_deliveries_kind_check CHECK (kind = ANY (ARRAY['event'::text, 'digest'::text, 'test'::text, 'source'::text]));
ALTER TABLE notification_deliveries ADD CONSTRAINT notification_deliveries_method_check CHECK (method = ANY (ARRAY['email'::text, 'webhook'::text, 'telegram'::text]));
ALTER TABLE notification_deliveries ADD CONSTRAINT notification_deliveries_organisation_id_fkey FOREIGN KEY (organisation_id) REFERENCES organisations(id) ON DELETE CASCADE;
ALTER TABLE notification_deliveries ADD CONSTRAINT notification_deliveries_pkey PRIMARY KEY (id);
ALTER TABLE notification_deliveries ADD CONSTRAINT notification_deliveries_rule_id_fkey FOREIGN KEY (rule_id) REFERENCES notification_rules(id) ON DELETE SET NULL;
ALTER TABLE notification_deliveries ADD CONSTRAINT notification_deliveries_status_check CHECK (status = ANY (ARRAY['queued'::text, 'sending'::text, 'retrying'::text, 'sent'::text, 'failed'::text]));

CREATE TABLE notification_digest_items (
  rule_id uuid NOT NULL,
  event_id uuid NOT NULL,
  run_id uuid,
  created_at timestamp with time zone DEFAULT now() NOT NULL
);
ALTER TABLE notification_digest_items ADD CONSTRAINT notification_digest_items_event_id_fkey FOREIGN KEY (event_id) REFERENCES monitoring_events(id) ON DELETE CASCADE;
ALTER TABLE notification_digest_items ADD CONSTRAINT notification_digest_items_pkey PRIMARY KEY (rule_id, event_id);
ALTER TABLE notification_digest_items ADD CONSTRAINT notification_digest_items_rule_id_fkey FOREIGN KEY (rule_id) REFERENCES notification_rules(id) ON DELETE CASCADE;

CREATE TABLE notification_rules (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  organisation_id uuid NOT NULL,
  name text NOT NULL,
  enabled boolean DEFAULT true NOT NULL,
  event_types text[] DEFAULT '{}'::text[] NOT NULL,
  min_severity text DEFAULT 'low'::text NOT NULL,
  item_label text,
  item_contract text,
  method text NOT NULL,
  recipients text[] DEFAULT '{}'::text[] NOT NULL,
  config jsonb DEFAULT '{}'::jsonb NOT NULL,
  mode text DEFAULT 'instant'::text NOT NULL,
  digest_hour smallint DEFAULT 9 NOT NULL,
  last_digest_on date,
  created_by uuid,
  updated_by uuid,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  updated_at timestamp with time zone DEFAULT now() NOT NULL,
  subject text DEFAULT 'events'::text NOT NULL,
  source_type text,
  failure_threshold integer DEFAULT 3 NOT NULL,
  stale_hours integer DEFAULT 24 NOT NULL,
  notify_recovery boolean DEFAULT true NOT NULL
);
ALTER TABLE notification_rules ADD CONSTRAINT notification_rules_created_by_fkey FOREIGN KEY (created_by) REFERENCES users(id) ON DELETE SET NULL;
ALTER TABLE notification_rules ADD CONSTRAINT notification_rules_digest_hour_check CHECK (digest_hour >= 0 AND digest_hour <= 23);
ALTER TABLE notification_rules ADD CONSTRAINT notification_rules_failure_threshold_check CHECK (failure_threshold >= 1 AND failure_threshold <= 100);
ALTER TABLE notification_rules ADD CONSTRAINT notification_rules_method_check CHECK (method = ANY (ARRAY['email'::text, 'webhook'::text, 'telegram'::text]));
ALTER TABLE notification_rules ADD CONSTRAINT notification_rules_min_severity_check CHECK (min_severity = ANY (ARRAY['low'::text, 'medium'::text, 'high'::text, 'critical'::text]));
ALTER TABLE notification_rules ADD CONSTRAINT notification_rules_mode_check CHECK (mode = ANY (ARRAY['instant'::text, 'daily'::text, 'run'::text]));
ALTER TABLE notification_rules ADD CONSTRAINT notification_rules_name_check CHECK (length(name) >= 1 AND length(name) <= 200);
ALTER TABLE notification_rules ADD CONSTRAINT notification_rules_organisation_id_fkey FOREIGN KEY (organisation_id) REFERENCES organisations(id) ON DELETE CASCADE;
ALTER TABLE notification_rules ADD CONSTRAINT notification_rules_pkey PRIMARY KEY (id);
ALTER TABLE notification_rules ADD CONSTRAINT notification_rules_stale_hours_check CHECK (stale_hours >= 1 AND stale_hours <= 8760);
ALTER TABLE notification_rules ADD CONSTRAINT notification_rules_subject_check CHECK (subject = ANY (ARRAY['events'::text, 'source_failure'::text, 'source_stale'::text]));
ALTER TABLE notification_rules ADD CONSTRAINT notification_rules_updated_by_fkey FOREIGN KEY (updated_by) REFERENCES users(id) ON DELETE SET NULL;

CREATE TABLE one_time_check_counters (
  organisation_id uuid NOT NULL,
  year integer NOT NULL,
  last_value integer NOT NULL
);
ALTER TABLE one_time_check_counters ADD CONSTRAINT one_time_check_counters_organisation_id_fkey FOREIGN KEY (organisation_id) REFERENCES organisations(id) ON DELETE CASCADE;
ALTER TABLE one_time_check_counters ADD CONSTRAINT one_time_check_counters_pkey PRIMARY KEY (organisation_id, year);

CREATE TABLE one_time_checks (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  organisation_id uuid NOT NULL,
  number text NOT NULL,
  kind text NOT NULL,
  document_type text,
  identifier text NOT NULL,
  decoded jsonb,
  warnings jsonb DEFAULT '[]'::jsonb NOT NULL,
  status text NOT NULL,
  findings_count integer DEFAULT 0 NOT NULL,
  demo boolean DEFAULT false NOT NULL,
  sources jsonb NOT NULL,
  created_by uuid,
  created_by_name text NOT NULL,
  duration_ms integer NOT NULL,
  created_at timestamp with time zone DEFAULT now() NOT NULL
);
ALTER TABLE one_time_checks ADD CONSTRAINT one_time_checks_created_by_fkey FOREIGN KEY (created_by) REFERENCES users(id) ON DELETE SET NULL;
ALTER TABLE one_time_checks ADD CONSTRAINT one_time_checks_kind_check CHECK (kind = ANY (ARRAY['vin'::text, 'document'::text]));
ALTER TABLE one_time_checks ADD CONSTRAINT one_time_checks_organisation_id_fkey FOREIGN KEY (organisation_id) REFERENCES organisations(id) ON DELETE CASCADE;
ALTER TABLE one_time_checks ADD CONSTRAINT one_time_checks_organisation_id_number_key UNIQUE (organisation_id, number);
ALTER TABLE one_time_checks ADD CONSTRAINT one_time_checks_pkey PRIMARY KEY (id);
ALTER TABLE one_time_checks ADD CONSTRAINT one_time_checks_status_check CHECK (status = ANY (ARRAY['completed'::text, 'partial'::text, 'failed'::text]));

CREATE TABLE organisations (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  name text NOT NULL,
  created_at timestamp with time zone DEFAULT now() NOT NULL
);
ALTER TABLE organisations ADD CONSTRAINT organisations_name_check CHECK (length(name) >= 1 AND length(name) <= 300);
ALTER TABLE organisations ADD CONSTRAINT organisations_pkey PRIMARY KEY (id);

CREATE TABLE pledge_event_corrections (
  id bigint DEFAULT nextval('pledge_event_corrections_id_seq'::regclass) NOT NULL,
  event_id uuid NOT NULL,
  corrected_by uuid,
  corrected_at timestamp with time zone DEFAULT now() NOT NULL
);
ALTER TABLE pledge_event_corrections ADD CONSTRAINT pledge_event_corrections_corrected_by_fkey FOREIGN KEY (corrected_by) REFERENCES users(id) ON DELETE SET NULL;
ALTER TABLE pledge_event_corrections ADD CONSTRAINT pledge_event_corrections_event_id_fkey FOREIGN KEY (event_id) REFERENCES pledge_events(id) ON DELETE CASCADE;
ALTER TABLE pledge_event_corrections ADD CONSTRAINT pledge_event_corrections_pkey PRIMARY KEY (id);

CREATE TABLE pledge_event_rejections (
  id bigint DEFAULT nextval('pledge_event_rejections_id_seq'::regclass) NOT NULL,
  event_id uuid NOT NULL,
  package_id uuid,
  reason text,
  rejected_by uuid,
  rejected_at timestamp with time zone DEFAULT now() NOT NULL,
  source text DEFAULT 'manual'::text NOT NULL
);
ALTER TABLE pledge_event_rejections ADD CONSTRAINT pledge_event_rejections_event_id_fkey FOREIGN KEY (event_id) REFERENCES pledge_events(id) ON DELETE CASCADE;
ALTER TABLE pledge_event_rejections ADD CONSTRAINT pledge_event_rejections_package_id_fkey FOREIGN KEY (package_id) REFERENCES pledge_packages(id) ON DELETE SET NULL;
ALTER TABLE pledge_event_rejections ADD CONSTRAINT pledge_event_rejections_pkey PRIMARY KEY (id);
ALTER TABLE pledge_event_rejections ADD CONSTRAINT pledge_event_rejections_rejected_by_fkey FOREIGN KEY (rejected_by) REFERENCES users(id) ON DELETE SET NULL;
ALTER TABLE pledge_event_rejections ADD CONSTRAINT pledge_event_rejections_source_check CHECK (source = ANY (ARRAY['manual'::text, 'registry'::text]));

CREATE TABLE pledge_events (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  organisation_id uuid NOT NULL,
  pledge_id uuid NOT NULL,
  kind text NOT NULL,
  event_key text NOT NULL,
  registration_number text,
  registered_number text,
  notification_date date NOT NULL,
  pledgor jsonb NOT NULL,
  pledgor_name text NOT NULL,
  pledgor_identifier text NOT NULL,
  pledgee jsonb NOT NULL,
  pledgee_name text NOT NULL,
  contract_name text,
  contract_number text NOT NULL,
  contract_date date NOT NULL,
  contract_end_date date,
  vehicles jsonb NOT NULL,
  vins text[] DEFAULT '{}'::text[] NOT NULL,
  source text NOT NULL,
  upload_id uuid,
  row_number integer,
  package_id uuid,
  created_by uuid,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  corrected_by uuid,
  corrected_at timestamp with time zone,
  notification_id uuid DEFAULT gen_random_uuid() NOT NULL,
  registered_at timestamp with time zone
);
ALTER TABLE pledge_events ADD CONSTRAINT pledge_events_corrected_by_fkey FOREIGN KEY (corrected_by) REFERENCES users(id) ON DELETE SET NULL;
ALTER TABLE pledge_events ADD CONSTRAINT pledge_events_created_by_fkey FOREIGN KEY (created_by) REFERENCES users(id) ON DELETE SET NULL;
ALTER TABLE pledge_events ADD CONSTRAINT pledge_events_kind_check CHECK (kind = ANY (ARRAY['creation'::text, 'change'::text, 'exclusion'::text]));
ALTER TABLE pledge_events ADD CONSTRAINT pledge_events_organisation_id_event_key_key UNIQUE (organisation_id, event_key);
ALTER TABLE pledge_events ADD CONSTRAINT pledge_events_organisation_id_fkey FOREIGN KEY (organisation_id) REFERENCES organisations(id) ON DELETE CASCADE;
ALTER TABLE pledge_events ADD CONSTRAINT pledge_events_package_id_fkey FOREIGN KEY (package_id) REFERENCES pledge_packages(id) ON DELETE SET NULL;
ALTER TABLE pledge_events ADD CONSTRAINT pledge_events_pkey PRIMARY KEY (id);
ALTER TABLE pledge_events ADD CONSTRAINT pledge_events_pledge_id_fkey FOREIGN KEY (pledge_id) REFERENCES pledges(id) ON DELETE CASCADE;
ALTER TABLE pledge_events ADD CONSTRAINT pledge_events_source_check CHECK (source = ANY (ARRAY['form'::text, 'upload'::text]));
ALTER TABLE pledge_events ADD CONSTRAINT pledge_events_upload_id_fkey FOREIGN KEY (upload_id) REFERENCES uploads(id) ON DELETE SET NULL;

CREATE TABLE pledge_package_history (
  id bigint DEFAULT nextval('pledge_package_history_id_seq'::regclass) NOT NULL,
  package_id uuid NOT NULL,
  action text NOT NULL,
  from_status text,
  to_status text NOT NULL,
  comment text,
  user_id uuid,
  created_at timestamp with time zone DEFAULT now() NOT NULL
);
ALTER TABLE pledge_package_history ADD CONSTRAINT pledge_package_history_package_id_fkey FOREIGN KEY (package_id) REFERENCES pledge_packages(id) ON DELETE CASCADE;
ALTER TABLE pledge_package_history ADD CONSTRAINT pledge_package_history_pkey PRIMARY KEY (id);
ALTER TABLE pledge_package_history ADD CONSTRAINT pledge_package_history_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE SET NULL;

CREATE TABLE pledge_packages (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  organisation_id uuid NOT NULL,
  number integer NOT NULL,
  name text NOT NULL,
  origin text NOT NULL,
  upload_id uuid,
  status text DEFAULT 'draft'::text NOT NULL,
  created_by uuid,
  approved_by uuid,
  approved_at timestamp with time zone,
  sent_at timestamp with time zone,
  registered_at timestamp with time zone,
  rejection_reason text,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  updated_at timestamp with time zone DEFAULT now() NOT NULL
);
ALTER TABLE pledge_packages ADD CONSTRAINT pledge_packages_approved_by_fkey FOREIGN KEY (approved_by) REFERENCES users(id) ON DELETE SET NULL;
ALTER TABLE pledge_packages ADD CONSTRAINT pledge_packages_created_by_fkey FOREIGN KEY (created_by) REFERENCES users(id) ON DELETE SET NULL;
ALTER TABLE pledge_packages ADD CONSTRAINT pledge_packages_organisation_id_fkey FOREIGN KEY (organisation_id) REFERENCES organisations(id) ON DELETE CASCADE;
ALTER TABLE pledge_packages ADD CONSTRAINT pledge_packages_organisation_id_number_key UNIQUE (organisation_id, number);
ALTER TABLE pledge_packages ADD CONSTRAINT pledge_packages_origin_check CHECK (origin = ANY (ARRAY['upload'::text, 'manual'::text]));
ALTER TABLE pledge_packages ADD CONSTRAINT pledge_packages_pkey PRIMARY KEY (id);
ALTER TABLE pledge_packages ADD CONSTRAINT pledge_packages_status_check CHECK (status = ANY (ARRAY['draft'::text, 'ready'::text, 'sent'::text, 'registered'::text, 'rejected'::text]));
ALTER TABLE pledge_packages ADD CONSTRAINT pledge_packages_upload_id_fkey FOREIGN KEY (upload_id) REFERENCES uploads(id) ON DELETE SET NULL;

CREATE TABLE pledge_vehicles (
  pledge_id uuid NOT NULL,
  organisation_id uuid NOT NULL,
  position integer NOT NULL,
  vin text,
  body_number text,
  chassis_number text,
  description text
);
ALTER TABLE pledge_vehicles ADD CONSTRAINT pledge_vehicles_organisation_id_fkey FOREIGN KEY (organisation_id) REFERENCES organisations(id) ON DELETE CASCADE;
ALTER TABLE pledge_vehicles ADD CONSTRAINT pledge_vehicles_pkey PRIMARY KEY (pledge_id, "position");
ALTER TABLE pledge_vehicles ADD CONSTRAINT pledge_vehicles_pledge_id_fkey FOREIGN KEY (pledge_id) REFERENCES pledges(id) ON DELETE CASCADE;

CREATE TABLE pledges (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  organisation_id uuid NOT NULL,
  registration_number text,
  status text DEFAULT 'active'::text NOT NULL,
  contract_name text,
  contract_number text NOT NULL,
  contract_date date NOT NULL,
  contract_end_date date,
  pledgor jsonb NOT NULL,
  pledgor_name text NOT NULL,
  pledgor_document_type text NOT NULL,
  pledgor_identifier text NOT NULL,
  pledgee jsonb NOT NULL,
  pledgee_name text NOT NULL,
  vehicles jsonb DEFAULT '[]'::jsonb NOT NULL,
  created_on date NOT NULL,
  last_notification_date date NOT NULL,
  excluded_on date,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  updated_at timestamp with time zone DEFAULT now() NOT NULL
);
ALTER TABLE pledges ADD CONSTRAINT pledges_organisation_id_fkey FOREIGN KEY (organisation_id) REFERENCES organisations(id) ON DELETE CASCADE;
ALTER TABLE pledges ADD CONSTRAINT pledges_pkey PRIMARY KEY (id);
ALTER TABLE pledges ADD CONSTRAINT pledges_status_check CHECK (status = ANY (ARRAY['active'::text, 'changed'::text, 'excluded'::text]));

CREATE TABLE saved_views (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  organisation_id uuid NOT NULL,
  user_id uuid NOT NULL,
  list text NOT NULL,
  name text NOT NULL,
  query text NOT NULL,
  is_default boolean DEFAULT false NOT NULL,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  updated_at timestamp with time zone DEFAULT now() NOT NULL
);
ALTER TABLE saved_views ADD CONSTRAINT saved_views_list_check CHECK (list = ANY (ARRAY['items'::text, 'events'::text, 'registry'::text]));
ALTER TABLE saved_views ADD CONSTRAINT saved_views_name_check CHECK (char_length(name) >= 1 AND char_length(name) <= 100);
ALTER TABLE saved_views ADD CONSTRAINT saved_views_organisation_id_fkey FOREIGN KEY (organisation_id) REFERENCES organisations(id) ON DELETE CASCADE;
ALTER TABLE saved_views ADD CONSTRAINT saved_views_pkey PRIMARY KEY (id);
ALTER TABLE saved_views ADD CONSTRAINT saved_views_query_check CHECK (char_length(query) <= 2000);
ALTER TABLE saved_views ADD CONSTRAINT saved_views_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE;

CREATE TABLE schema_migrations (
  version text NOT NULL,
  applied_at timestamp with time zone DEFAULT now() NOT NULL
);
ALTER TABLE schema_migrations ADD CONSTRAINT schema_migrations_pkey PRIMARY KEY (version);

CREATE TABLE sessions (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  user_id uuid NOT NULL,
  token_hash text NOT NULL,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  last_used_at timestamp with time zone DEFAULT now() NOT NULL,
  expires_at timestamp with time zone NOT NULL,
  user_agent text,
  ip text
);
ALTER TABLE sessions ADD CONSTRAINT sessions_pkey PRIMARY KEY (id);
ALTER TABLE sessions ADD CONSTRAINT sessions_token_hash_key UNIQUE (token_hash);
ALTER TABLE sessions ADD CONSTRAINT sessions_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE;

CREATE TABLE source_alert_states (
  rule_id uuid NOT NULL,
  source_type text NOT NULL,
  kind text NOT NULL,
  open boolean DEFAULT false NOT NULL,
  episode integer DEFAULT 0 NOT NULL,
  opened_at timestamp with time zone,
  closed_at timestamp with time zone
);
ALTER TABLE source_alert_states ADD CONSTRAINT source_alert_states_kind_check CHECK (kind = ANY (ARRAY['failure'::text, 'stale'::text]));
ALTER TABLE source_alert_states ADD CONSTRAINT source_alert_states_pkey PRIMARY KEY (rule_id, source_type, kind);
ALTER TABLE source_alert_states ADD CONSTRAINT source_alert_states_rule_id_fkey FOREIGN KEY (rule_id) REFERENCES notification_rules(id) ON DELETE CASCADE;

CREATE TABLE source_answers (
  id bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
  source_type text NOT NULL,
  mode text NOT NULL,
  items integer NOT NULL,
  ok boolean NOT NULL,
  duration_ms integer NOT NULL,
  error text,
  created_at timestamp with time zone DEFAULT now() NOT NULL
);
ALTER TABLE source_answers ADD CONSTRAINT source_answers_mode_check CHECK (mode = ANY (ARRAY['item'::text, 'batch'::text]));
ALTER TABLE source_answers ADD CONSTRAINT source_answers_pkey PRIMARY KEY (id);

CREATE TABLE source_cache (
  source_type text NOT NULL,
  document_type text DEFAULT ''::text NOT NULL,
  identifier text NOT NULL,
  findings jsonb NOT NULL,
  fetched_at timestamp with time zone DEFAULT now() NOT NULL,
  expires_at timestamp with time zone NOT NULL
);
ALTER TABLE source_cache ADD CONSTRAINT source_cache_pkey PRIMARY KEY (source_type, document_type, identifier);

CREATE TABLE source_imports (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  source_type text NOT NULL,
  version integer NOT NULL,
  file_name text NOT NULL,
  status text DEFAULT 'importing'::text NOT NULL,
  records_total integer DEFAULT 0 NOT NULL,
  rows_rejected integer DEFAULT 0 NOT NULL,
  errors jsonb DEFAULT '[]'::jsonb NOT NULL,
  created_by uuid,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  activated_at timestamp with time zone,
  file_path text,
  phase text,
  bytes_read bigint DEFAULT 0 NOT NULL,
  bytes_total bigint,
  rows_read bigint DEFAULT 0 NOT NULL,
  failure text,
  storage_table text,
  demo boolean DEFAULT false NOT NULL
);
ALTER TABLE source_imports ADD CONSTRAINT source_imports_created_by_fkey FOREIGN KEY (created_by) REFERENCES users(id) ON DELETE SET NULL;
ALTER TABLE source_imports ADD CONSTRAINT source_imports_phase_check CHECK (phase = ANY (ARRAY['queued'::text, 'downloading'::text, 'loading'::text, 'indexing'::text, 'switching'::text]));
ALTER TABLE source_imports ADD CONSTRAINT source_imports_pkey PRIMARY KEY (id);
ALTER TABLE source_imports ADD CONSTRAINT source_imports_source_type_version_key UNIQUE (source_type, version);
ALTER TABLE source_imports ADD CONSTRAINT source_imports_status_check CHECK (status = ANY (ARRAY['importing'::text, 'active'::text, 'superseded'::text, 'failed'::text]));

CREATE TABLE source_list_fetches (
  source_type text NOT NULL,
  url text NOT NULL,
  etag text,
  last_modified text,
  content_length bigint,
  checked_at timestamp with time zone,
  changed_at timestamp with time zone,
  last_error text,
  import_id uuid
);
ALTER TABLE source_list_fetches ADD CONSTRAINT source_list_fetches_import_id_fkey FOREIGN KEY (import_id) REFERENCES source_imports(id) ON DELETE SET NULL;
ALTER TABLE source_list_fetches ADD CONSTRAINT source_list_fetches_pkey PRIMARY KEY (source_type);

CREATE TABLE source_pauses (
  account text NOT NULL,
  paused_until timestamp with time zone NOT NULL
);
ALTER TABLE source_pauses ADD CONSTRAINT source_pauses_pkey PRIMARY KEY (account);

CREATE TABLE source_rate_sends (
  source_type text NOT NULL,
  sent_at timestamp with time zone NOT NULL
);

CREATE TABLE source_rate_slots (
  source_type text NOT NULL,
  next_slot timestamp with time zone NOT NULL,
  paced_until timestamp with time zone DEFAULT '-infinity'::timestamp with time zone NOT NULL,
  recent_sends timestamp with time zone[] DEFAULT '{}'::timestamp with time zone[] NOT NULL
);
ALTER TABLE source_rate_slots ADD CONSTRAINT source_rate_slots_pkey PRIMARY KEY (source_type);

CREATE TABLE source_records (
  import_id uuid NOT NULL,
  document_type text DEFAULT ''::text NOT NULL,
  identifier text NOT NULL,
  finding_key text NOT NULL,
  payload jsonb NOT NULL
);
ALTER TABLE source_records ADD CONSTRAINT source_records_import_id_fkey FOREIGN KEY (import_id) REFERENCES source_imports(id) ON DELETE CASCADE;

CREATE TABLE source_request_days (
  source_type text NOT NULL,
  day date NOT NULL,
  requests integer DEFAULT 0 NOT NULL,
  spend numeric(14,2) DEFAULT 0 NOT NULL
);
ALTER TABLE source_request_days ADD CONSTRAINT source_request_days_pkey PRIMARY KEY (source_type, day);
ALTER TABLE source_request_days ADD CONSTRAINT source_request_days_requests_check CHECK (requests >= 0);

CREATE TABLE statistics_delivery_days (
  organisation_id uuid NOT NULL,
  day date NOT NULL,
  status text NOT NULL,
  deliveries integer DEFAULT 0 NOT NULL
);
ALTER TABLE statistics_delivery_days ADD CONSTRAINT statistics_delivery_days_organisation_id_fkey FOREIGN KEY (organisation_id) REFERENCES organisations(id) ON DELETE CASCADE;
ALTER TABLE statistics_delivery_days ADD CONSTRAINT statistics_delivery_days_pkey PRIMARY KEY (organisation_id, day, status);

CREATE TABLE statistics_event_days (
  organisation_id uuid NOT NULL,
  day date NOT NULL,
  event_type text NOT NULL,
  source_type text NOT NULL,
  item_kind text NOT NULL,
  events integer NOT NULL
);
ALTER TABLE statistics_event_days ADD CONSTRAINT statistics_event_days_organisation_id_fkey FOREIGN KEY (organisation_id) REFERENCES organisations(id) ON DELETE CASCADE;
ALTER TABLE statistics_event_days ADD CONSTRAINT statistics_event_days_pkey PRIMARY KEY (organisation_id, day, event_type, source_type, item_kind);

CREATE TABLE statistics_item_days (
  organisation_id uuid NOT NULL,
  day date NOT NULL,
  kind text NOT NULL,
  added integer DEFAULT 0 NOT NULL,
  archived integer DEFAULT 0 NOT NULL,
  part integer DEFAULT 0 NOT NULL
);
ALTER TABLE statistics_item_days ADD CONSTRAINT statistics_item_days_organisation_id_fkey FOREIGN KEY (organisation_id) REFERENCES organisations(id) ON DELETE CASCADE;
ALTER TABLE statistics_item_days ADD CONSTRAINT statistics_item_days_pkey PRIMARY KEY (organisation_id, day, kind, part);

CREATE TABLE statistics_label_event_days (
  organisation_id uuid NOT NULL,
  label text NOT NULL,
  day date NOT NULL,
  event_type text NOT NULL,
  source_type text NOT NULL,
  item_kind text NOT NULL,
  events integer NOT NULL
);
ALTER TABLE statistics_label_event_days ADD CONSTRAINT statistics_label_event_days_organisation_id_fkey FOREIGN KEY (organisation_id) REFERENCES organisations(id) ON DELETE CASCADE;
ALTER TABLE statistics_label_event_days ADD CONSTRAINT statistics_label_event_days_pkey PRIMARY KEY (organisation_id, label, day, event_type, source_type, item_kind);

CREATE TABLE statistics_label_item_days (
  organisation_id uuid NOT NULL,
  label text NOT NULL,
  day date NOT NULL,
  kind text NOT NULL,
  added integer DEFAULT 0 NOT NULL,
  archived integer DEFAULT 0 NOT NULL,
  part integer DEFAULT 0 NOT NULL
);
ALTER TABLE statistics_label_item_days ADD CONSTRAINT statistics_label_item_days_pkey PRIMARY KEY (organisation_id, label, day, kind, part);

CREATE TABLE statistics_labels (
  organisation_id uuid NOT NULL,
  label text NOT NULL
);
ALTER TABLE statistics_labels ADD CONSTRAINT statistics_labels_pkey PRIMARY KEY (organisation_id, label);

CREATE TABLE statistics_labels_pending (
  organisation_id uuid NOT NULL,
  labels text[] NOT NULL
);
ALTER TABLE statistics_labels_pending ADD CONSTRAINT statistics_labels_pending_organisation_id_fkey FOREIGN KEY (organisation_id) REFERENCES organisations(id) ON DELETE CASCADE;

CREATE TABLE statistics_one_time_check_days (
  organisation_id uuid NOT NULL,
  day date NOT NULL,
  kind text NOT NULL,
  checks integer DEFAULT 0 NOT NULL
);
ALTER TABLE statistics_one_time_check_days ADD CONSTRAINT statistics_one_time_check_days_organisation_id_fkey FOREIGN KEY (organisation_id) REFERENCES organisations(id) ON DELETE CASCADE;
ALTER TABLE statistics_one_time_check_days ADD CONSTRAINT statistics_one_time_check_days_pkey PRIMARY KEY (organisation_id, day, kind);

CREATE TABLE upload_column_mappings (
  organisation_id uuid NOT NULL,
  kind text NOT NULL,
  signature text NOT NULL,
  fields jsonb NOT NULL,
  updated_by uuid,
  updated_at timestamp with time zone DEFAULT now() NOT NULL
);
ALTER TABLE upload_column_mappings ADD CONSTRAINT upload_column_mappings_kind_check CHECK (kind = ANY (ARRAY['items'::text, 'pledge_events'::text]));
ALTER TABLE upload_column_mappings ADD CONSTRAINT upload_column_mappings_organisation_id_fkey FOREIGN KEY (organisation_id) REFERENCES organisations(id) ON DELETE CASCADE;
ALTER TABLE upload_column_mappings ADD CONSTRAINT upload_column_mappings_pkey PRIMARY KEY (organisation_id, kind, signature);
ALTER TABLE upload_column_mappings ADD CONSTRAINT upload_column_mappings_updated_by_fkey FOREIGN KEY (updated_by) REFERENCES users(id) ON DELETE SET NULL;

CREATE TABLE upload_errors (
  upload_id uuid NOT NULL,
  row_number integer NOT NULL,
  field text,
  message text NOT NULL,
  raw text[] DEFAULT '{}'::text[] NOT NULL
);
ALTER TABLE upload_errors ADD CONSTRAINT upload_errors_upload_id_fkey FOREIGN KEY (upload_id) REFERENCES uploads(id) ON DELETE CASCADE;

CREATE UNLOGGED TABLE upload_item_rows (
  upload_id uuid NOT NULL,
  row_number integer NOT NULL,
  kind text NOT NULL,
  document_type text,
  identifier text NOT NULL,
  label text,
  contract_number text,
  pledgor_name text,
  warning text
);

CREATE UNLOGGED TABLE upload_pledge_event_rows (
  upload_id uuid NOT NULL,
  row_number integer NOT NULL,
  group_key text NOT NULL,
  event jsonb NOT NULL,
  vin text,
  body_number text,
  chassis_number text,
  description text,
  warning text,
  raw text[] DEFAULT '{}'::text[] NOT NULL
);

CREATE TABLE uploads (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  organisation_id uuid NOT NULL,
  created_by uuid,
  kind text NOT NULL,
  file_name text NOT NULL,
  file_size bigint DEFAULT 0 NOT NULL,
  status text DEFAULT 'received'::text NOT NULL,
  rows_total integer DEFAULT 0 NOT NULL,
  rows_processed integer DEFAULT 0 NOT NULL,
  rows_accepted integer DEFAULT 0 NOT NULL,
  rows_duplicate integer DEFAULT 0 NOT NULL,
  rows_rejected integer DEFAULT 0 NOT NULL,
  rows_restored integer DEFAULT 0 NOT NULL,
  auto_confirm boolean DEFAULT false NOT NULL,
  error_message text,
  details jsonb DEFAULT '{}'::jsonb NOT NULL,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  updated_at timestamp with time zone DEFAULT now() NOT NULL,
  finished_at timestamp with time zone
);
ALTER TABLE uploads ADD CONSTRAINT uploads_created_by_fkey FOREIGN KEY (created_by) REFERENCES users(id) ON DELETE SET NULL;
ALTER TABLE uploads ADD CONSTRAINT uploads_kind_check CHECK (kind = ANY (ARRAY['items'::text, 'pledge_events'::text]));
ALTER TABLE uploads ADD CONSTRAINT uploads_organisation_id_fkey FOREIGN KEY (organisation_id) REFERENCES organisations(id) ON DELETE CASCADE;
ALTER TABLE uploads ADD CONSTRAINT uploads_pkey PRIMARY KEY (id);
ALTER TABLE uploads ADD CONSTRAINT uploads_status_check CHECK (status = ANY (ARRAY['received'::text, 'needs_mapping'::text, 'validating'::text, 'validated'::text, 'importing'::text, 'done'::text, 'done_with_errors'::text, 'failed'::text, 'cancelled'::text]));

CREATE TABLE users (
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  organisation_id uuid NOT NULL,
  email text NOT NULL,
  full_name text NOT NULL,
  password_hash text,
  role text NOT NULL,
  is_staff boolean DEFAULT false NOT NULL,
  email_verified_at timestamp with time zone,
  pending_email text,
  active boolean DEFAULT true NOT NULL,
  last_login_at timestamp with time zone,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  updated_at timestamp with time zone DEFAULT now() NOT NULL,
  service_account boolean DEFAULT false NOT NULL
);
ALTER TABLE users ADD CONSTRAINT users_email_check CHECK (email = lower(email));
ALTER TABLE users ADD CONSTRAINT users_organisation_id_fkey FOREIGN KEY (organisation_id) REFERENCES organisations(id) ON DELETE CASCADE;
ALTER TABLE users ADD CONSTRAINT users_pkey PRIMARY KEY (id);
ALTER TABLE users ADD CONSTRAINT users_role_check CHECK (role = ANY (ARRAY['admin'::text, 'analyst'::text, 'viewer'::text]));

CREATE INDEX api_keys_organisation ON public.api_keys USING btree (organisation_id, created_at DESC);
CREATE INDEX audit_log_org_idx ON public.audit_log USING btree (organisation_id, created_at DESC);
CREATE INDEX auth_attempts_lookup_idx ON public.auth_attempts USING btree (kind, key, created_at);
CREATE INDEX auth_attempts_success_idx ON public.auth_attempts USING btree (kind, key, created_at) WHERE succeeded;
CREATE UNIQUE INDEX check_runs_one_open_key ON public.check_runs USING btree (organisation_id) WHERE (status = ANY (ARRAY['queued'::text, 'running'::text]));
CREATE INDEX check_runs_org_created_idx ON public.check_runs USING btree (organisation_id, created_at DESC, id);
CREATE INDEX email_tokens_user_idx ON public.email_tokens USING btree (user_id, kind);
CREATE INDEX finding_snapshots_batch_idx ON public.finding_snapshots USING btree (organisation_id, source_type, identifier) INCLUDE (item_id, hash);
CREATE INDEX idempotency_keys_created ON public.idempotency_keys USING btree (created_at);
CREATE INDEX job_starts_job_id ON public.job_starts USING btree (job_id);
CREATE INDEX job_starts_started_at ON public.job_starts USING btree (started_at);
CREATE INDEX mail_outbox_created_idx ON public.mail_outbox USING btree (created_at DESC);
CREATE INDEX mail_outbox_status_idx ON public.mail_outbox USING btree (status, created_at);
CREATE INDEX mail_outbox_to_idx ON public.mail_outbox USING btree (to_address, created_at DESC);
CREATE INDEX monitoring_check_ranges_lookup_idx ON public.monitoring_check_ranges USING btree (organisation_id, kind, lower(identifiers));
CREATE INDEX monitoring_check_ranges_sort_idx ON public.monitoring_check_ranges USING btree (organisation_id, kind, checked_at);
CREATE INDEX monitoring_event_unread_counts_org_idx ON public.monitoring_event_unread_counts USING btree (organisation_id, event_type, source_type, severity);
CREATE INDEX monitoring_events_item_idx ON public.monitoring_events USING btree (item_id, detected_at DESC);
CREATE UNIQUE INDEX monitoring_events_lapse_key ON public.monitoring_events USING btree (organisation_id, event_type, finding_key) WHERE (run_id IS NULL);
CREATE INDEX monitoring_events_org_detected_idx ON public.monitoring_events USING btree (organisation_id, detected_at DESC, id DESC);
CREATE INDEX monitoring_events_org_severity_idx ON public.monitoring_events USING btree (organisation_id, (
CASE severity
    WHEN 'low'::text THEN 1
    WHEN 'medium'::text THEN 2
    WHEN 'high'::text THEN 3
    WHEN 'critical'::text THEN 4
    ELSE 0
END), detected_at, id);
CREATE INDEX monitoring_events_org_source_idx ON public.monitoring_events USING btree (organisation_id, source_type, detected_at, id);
CREATE INDEX monitoring_events_org_type_idx ON public.monitoring_events USING btree (organisation_id, event_type, detected_at, id);
CREATE INDEX monitoring_events_unread_idx ON public.monitoring_events USING btree (organisation_id) WHERE (read_at IS NULL);
CREATE INDEX monitoring_item_checks_own_idx ON public.monitoring_item_checks USING btree (organisation_id, kind, item_status, last_checked_at, item_id) WHERE (unranged_since IS NOT NULL);
CREATE INDEX monitoring_item_checks_ranged_idx ON public.monitoring_item_checks USING btree (organisation_id, kind, identifier) INCLUDE (item_id) WHERE (unranged_since IS NULL);
CREATE INDEX monitoring_item_checks_unranged_idx ON public.monitoring_item_checks USING btree (organisation_id, kind, identifier) WHERE (unranged_since IS NOT NULL);
CREATE INDEX monitoring_item_counts_org_idx ON public.monitoring_item_counts USING btree (organisation_id, kind, status);
CREATE INDEX monitoring_item_import_ranges_org_idx ON public.monitoring_item_import_ranges USING btree (organisation_id, created_at);
CREATE INDEX monitoring_item_revisions_org_idx ON public.monitoring_item_revisions USING btree (organisation_id);
CREATE INDEX monitoring_items_created_idx ON public.monitoring_items USING btree (organisation_id, kind, created_at, id) INCLUDE (status);
CREATE INDEX monitoring_items_identifier_idx ON public.monitoring_items USING btree (identifier);
CREATE UNIQUE INDEX monitoring_items_identity_key ON public.monitoring_items USING btree (organisation_id, kind, identifier, COALESCE(document_type, ''::text));
CREATE INDEX monitoring_items_inactive_idx ON public.monitoring_items USING btree (organisation_id, kind, status, created_at, id) WHERE (status <> 'active'::text);
CREATE INDEX monitoring_items_search_text_idx ON public.monitoring_items USING gin (search_text gin_trgm_ops) WITH (fastupdate='on', gin_pending_list_limit='4096');
CREATE INDEX monitoring_items_sort_contract_idx ON public.monitoring_items USING btree (organisation_id, kind, contract_number COLLATE "C", id) INCLUDE (status);
CREATE INDEX monitoring_items_sort_identifier_idx ON public.monitoring_items USING btree (organisation_id, kind, identifier, id) INCLUDE (status, document_type);
CREATE INDEX monitoring_items_sort_label_idx ON public.monitoring_items USING btree (organisation_id, kind, label, id) INCLUDE (status);
CREATE INDEX news_items_feed_idx ON public.news_items USING btree (pinned DESC, published_at DESC, id DESC) WHERE (NOT draft);
CREATE INDEX news_reads_news_idx ON public.news_reads USING btree (news_id);
CREATE INDEX notification_deliveries_org_idx ON public.notification_deliveries USING btree (organisation_id, created_at DESC, id DESC);
CREATE INDEX notification_deliveries_rule_idx ON public.notification_deliveries USING btree (rule_id, created_at DESC);
CREATE INDEX notification_deliveries_status_idx ON public.notification_deliveries USING btree (organisation_id, status, created_at DESC);
CREATE INDEX notification_digest_items_run_idx ON public.notification_digest_items USING btree (run_id, rule_id);
CREATE INDEX notification_rules_org_idx ON public.notification_rules USING btree (organisation_id, created_at, id);
CREATE INDEX one_time_checks_identifier_idx ON public.one_time_checks USING btree (organisation_id, identifier);
CREATE INDEX one_time_checks_org_created_idx ON public.one_time_checks USING btree (organisation_id, created_at DESC, id);
CREATE INDEX one_time_checks_search_idx ON public.one_time_checks USING gin (lower(((number || ' '::text) || identifier)) gin_trgm_ops);
CREATE INDEX pledge_event_corrections_event_idx ON public.pledge_event_corrections USING btree (event_id, id);
CREATE INDEX pledge_event_rejections_event_idx ON public.pledge_event_rejections USING btree (event_id, id);
CREATE INDEX pledge_event_rejections_package_idx ON public.pledge_event_rejections USING btree (package_id);
CREATE UNIQUE INDEX pledge_events_notification_id_key ON public.pledge_events USING btree (notification_id);
CREATE INDEX pledge_events_org_date_idx ON public.pledge_events USING btree (organisation_id, notification_date DESC, created_at DESC);
CREATE INDEX pledge_events_package_idx ON public.pledge_events USING btree (package_id);
CREATE INDEX pledge_events_pledge_idx ON public.pledge_events USING btree (pledge_id, notification_date, created_at);
CREATE INDEX pledge_events_pledgor_idx ON public.pledge_events USING gin (lower(((pledgor_name || ' '::text) || pledgor_identifier)) gin_trgm_ops);
CREATE INDEX pledge_events_search_idx ON public.pledge_events USING gin (pw_pledge_event_search_text(contract_number, registration_number, registered_number, pledgor_identifier, vins) gin_trgm_ops);
CREATE INDEX pledge_events_vins_idx ON public.pledge_events USING gin (vins);
CREATE INDEX pledge_package_history_package_idx ON public.pledge_package_history USING btree (package_id, id);
CREATE INDEX pledge_packages_org_idx ON public.pledge_packages USING btree (organisation_id, created_at DESC);
CREATE UNIQUE INDEX pledge_packages_upload_key ON public.pledge_packages USING btree (upload_id) WHERE (upload_id IS NOT NULL);
CREATE INDEX pledge_vehicles_org_vin_idx ON public.pledge_vehicles USING btree (organisation_id, vin);
CREATE INDEX pledge_vehicles_vin_idx ON public.pledge_vehicles USING btree (vin) WHERE (vin IS NOT NULL);
CREATE INDEX pledges_org_contract_idx ON public.pledges USING btree (organisation_id, contract_number);
CREATE UNIQUE INDEX pledges_registration_key ON public.pledges USING btree (organisation_id, registration_number) WHERE (registration_number IS NOT NULL);
CREATE UNIQUE INDEX saved_views_default ON public.saved_views USING btree (user_id, list) WHERE is_default;
CREATE UNIQUE INDEX saved_views_name ON public.saved_views USING btree (user_id, list, lower(name));
CREATE INDEX saved_views_organisation ON public.saved_views USING btree (organisation_id);
CREATE INDEX sessions_expires_idx ON public.sessions USING btree (expires_at);
CREATE INDEX sessions_user_idx ON public.sessions USING btree (user_id);
CREATE INDEX source_answers_recent_idx ON public.source_answers USING btree (source_type, id DESC);
CREATE UNIQUE INDEX source_imports_active_key ON public.source_imports USING btree (source_type) WHERE (status = 'active'::text);
CREATE INDEX source_rate_sends_source_sent ON public.source_rate_sends USING btree (source_type, sent_at);
CREATE INDEX source_records_match_idx ON public.source_records USING btree (import_id, identifier, document_type);
CREATE INDEX statistics_labels_search_idx ON public.statistics_labels USING gin (label gin_trgm_ops) WITH (fastupdate='on', gin_pending_list_limit='4096');
CREATE INDEX statistics_labels_pending_org_idx ON public.statistics_labels_pending USING btree (organisation_id);
CREATE INDEX upload_errors_upload_idx ON public.upload_errors USING btree (upload_id, row_number);
CREATE INDEX upload_item_rows_upload_idx ON public.upload_item_rows USING btree (upload_id, row_number);
CREATE INDEX upload_pledge_event_rows_upload_idx ON public.upload_pledge_event_rows USING btree (upload_id, row_number);
CREATE INDEX uploads_org_created_idx ON public.uploads USING btree (organisation_id, created_at DESC);
CREATE INDEX uploads_org_kind_status_idx ON public.uploads USING btree (organisation_id, kind, status, created_at DESC);
CREATE UNIQUE INDEX users_email_key ON public.users USING btree (email);
CREATE INDEX users_organisation_idx ON public.users USING btree (organisation_id, created_at);

CREATE OR REPLACE FUNCTION public.check_runs_forget_writes()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  DELETE FROM monitoring_events e USING old_runs r WHERE e.run_id = r.id;
  UPDATE finding_snapshots s SET run_id = NULL FROM old_runs r WHERE s.run_id = r.id;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION public.compact_monitoring_event_unread_counts(org uuid)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF NOT pg_try_advisory_xact_lock(724611200, hashtext(org::text)) THEN
    RETURN;
  END IF;
  WITH gone AS (
    DELETE FROM monitoring_event_unread_counts WHERE organisation_id = org
    RETURNING event_type, source_type, severity, events
  )
  INSERT INTO monitoring_event_unread_counts (organisation_id, event_type, source_type, severity, events)
  SELECT org, event_type, source_type, severity, sum(events) FROM gone
   GROUP BY event_type, source_type, severity HAVING sum(events) <> 0;
END $function$;

CREATE OR REPLACE FUNCTION public.compact_monitoring_item_counts(org uuid)
 RETURNS void
 LANGUAGE sql
AS $function$
  WITH gone AS (
    DELETE FROM monitoring_item_counts WHERE organisation_id = org RETURNING kind, status, items
  )
  INSERT INTO monitoring_item_counts (organisation_id, kind, status, items)
  SELECT org, kind, status, sum(items) FROM gone GROUP BY kind, status HAVING sum(items) <> 0;
$function$;

CREATE OR REPLACE FUNCTION public.compact_monitoring_item_revisions(org uuid)
 RETURNS void
 LANGUAGE sql
AS $function$
  WITH gone AS (DELETE FROM monitoring_item_revisions WHERE organisation_id = org RETURNING marks)
  INSERT INTO monitoring_item_revisions (organisation_id, marks)
  SELECT org, sum(marks) FROM gone HAVING count(*) > 0;
$function$;

CREATE OR REPLACE FUNCTION public.item_last_checked_at(item uuid)
 RETURNS timestamp with time zone
 LANGUAGE sql
 STABLE PARALLEL SAFE
AS $function$
  SELECT CASE WHEN c.unranged_since IS NOT NULL THEN c.last_checked_at
              ELSE (SELECT r.checked_at
                      FROM (SELECT s.identifiers, s.checked_at FROM monitoring_check_ranges s
                             WHERE s.organisation_id = c.organisation_id AND s.kind = c.kind
                               AND lower(s.identifiers) <= c.identifier
                             ORDER BY lower(s.identifiers) DESC LIMIT 2) r
                     WHERE r.identifiers @> c.identifier LIMIT 1) END
    FROM monitoring_item_checks c WHERE c.item_id = item
$function$;

CREATE OR REPLACE FUNCTION public.monitoring_event_severity_days_deleted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  UPDATE monitoring_event_severity_days s SET events = s.events - d.events
    FROM (SELECT organisation_id, (detected_at AT TIME ZONE 'Europe/Moscow')::date AS day, event_type, source_type,
                 severity, count(*)::int AS events
            FROM severity_old_events GROUP BY 1, 2, 3, 4, 5) d
   WHERE s.organisation_id = d.organisation_id AND s.day = d.day AND s.event_type = d.event_type
     AND s.source_type = d.source_type AND s.severity = d.severity;
  RETURN NULL;
END
$function$;

CREATE OR REPLACE FUNCTION public.monitoring_event_severity_days_inserted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO monitoring_event_severity_days AS s (organisation_id, day, event_type, source_type, severity, events)
  SELECT organisation_id, (detected_at AT TIME ZONE 'Europe/Moscow')::date, event_type, source_type, severity, count(*)
    FROM severity_new_events
   GROUP BY 1, 2, 3, 4, 5
   ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (organisation_id, day, event_type, source_type, severity)
  DO UPDATE SET events = s.events + EXCLUDED.events;
  RETURN NULL;
END
$function$;

CREATE OR REPLACE FUNCTION public.monitoring_events_unread_deleted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO monitoring_event_unread_counts (organisation_id, event_type, source_type, severity, events)
  SELECT d.organisation_id, d.event_type, d.source_type, d.severity, -count(*)
    FROM unread_old_events d
   WHERE d.read_at IS NULL AND EXISTS (SELECT 1 FROM organisations o WHERE o.id = d.organisation_id)
   GROUP BY 1, 2, 3, 4;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION public.monitoring_events_unread_inserted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO monitoring_event_unread_counts (organisation_id, event_type, source_type, severity, events)
  SELECT organisation_id, event_type, source_type, severity, count(*)
    FROM unread_new_events WHERE read_at IS NULL GROUP BY 1, 2, 3, 4;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION public.monitoring_events_unread_updated()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO monitoring_event_unread_counts (organisation_id, event_type, source_type, severity, events)
  SELECT organisation_id, event_type, source_type, severity, sum(delta)
    FROM (SELECT organisation_id, event_type, source_type, severity, 1 AS delta
            FROM unread_new_events WHERE read_at IS NULL
          UNION ALL
          SELECT organisation_id, event_type, source_type, severity, -1
            FROM unread_old_events WHERE read_at IS NULL) x
   GROUP BY 1, 2, 3, 4
  HAVING sum(delta) <> 0;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION public.monitoring_item_checks_deleted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  DELETE FROM monitoring_item_checks c USING old_rows d WHERE c.item_id = d.id;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION public.monitoring_item_checks_inserted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO monitoring_item_checks
    (item_id, organisation_id, kind, last_checked_at, identifier, unranged_since, item_status)
  SELECT id, organisation_id, kind, last_checked_at, identifier, now(), status FROM new_rows;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION public.monitoring_item_checks_stamped()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  UPDATE monitoring_item_checks SET last_checked_at = NEW.last_checked_at, unranged_since = now()
   WHERE item_id = NEW.id;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION public.monitoring_item_checks_status_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF OLD.status = 'active' THEN
    UPDATE monitoring_item_checks
       SET last_checked_at = CASE WHEN unranged_since IS NULL THEN item_last_checked_at(NEW.id) ELSE last_checked_at END,
           unranged_since = coalesce(unranged_since, now()),
           item_status = NEW.status
     WHERE item_id = NEW.id;
  ELSE
    UPDATE monitoring_item_checks SET item_status = NEW.status WHERE item_id = NEW.id;
  END IF;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION public.monitoring_item_revisions_deleted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO monitoring_item_revisions (organisation_id)
  SELECT DISTINCT d.organisation_id FROM old_rows d
   WHERE EXISTS (SELECT 1 FROM organisations o WHERE o.id = d.organisation_id);
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION public.monitoring_item_revisions_inserted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO monitoring_item_revisions (organisation_id) SELECT DISTINCT organisation_id FROM new_rows;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION public.monitoring_item_revisions_updated()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO monitoring_item_revisions (organisation_id) VALUES (NEW.organisation_id);
  IF OLD.organisation_id IS DISTINCT FROM NEW.organisation_id THEN
    INSERT INTO monitoring_item_revisions (organisation_id) VALUES (OLD.organisation_id);
  END IF;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION public.monitoring_items_count_deleted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO monitoring_item_counts (organisation_id, kind, status, items)
  SELECT d.organisation_id, d.kind, d.status, -count(*) FROM old_rows d
   WHERE EXISTS (SELECT 1 FROM organisations o WHERE o.id = d.organisation_id)
   GROUP BY 1, 2, 3;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION public.monitoring_items_count_inserted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO monitoring_item_counts (organisation_id, kind, status, items)
  SELECT organisation_id, kind, status, count(*) FROM new_rows GROUP BY 1, 2, 3;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION public.monitoring_items_count_updated()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO monitoring_item_counts (organisation_id, kind, status, items)
  VALUES (OLD.organisation_id, OLD.kind, OLD.status, -1), (NEW.organisation_id, NEW.kind, NEW.status, 1);
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION public.monitoring_items_forget_upload()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  UPDATE monitoring_items SET upload_id = NULL WHERE upload_id = OLD.id;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION public.monitoring_items_forget_user()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  UPDATE monitoring_items SET created_by = NULL WHERE created_by = OLD.id;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION public.organisations_forget_items()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  DELETE FROM monitoring_items WHERE organisation_id = OLD.id;
  DELETE FROM statistics_label_item_days WHERE organisation_id = OLD.id;
  DELETE FROM statistics_labels WHERE organisation_id = OLD.id;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION public.pw_import_range_first_id()
 RETURNS uuid
 LANGUAGE sql
 PARALLEL SAFE
AS $function$
  SELECT encode(overlay(uuid_send(pw_uuid_v7()) PLACING '\x8000000000000000'::bytea FROM 9 FOR 8), 'hex')::uuid
$function$;

CREATE OR REPLACE FUNCTION public.pw_import_range_id(first uuid, n bigint)
 RETURNS uuid
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT encode(overlay(uuid_send(first) PLACING int8send(n - 9223372036854775807 - 1) FROM 9 FOR 8), 'hex')::uuid
$function$;

CREATE OR REPLACE FUNCTION public.pw_import_range_last_id(first uuid)
 RETURNS uuid
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT pw_import_range_id(first, 4611686018427387903)
$function$;

CREATE OR REPLACE FUNCTION public.pw_pledge_event_search_text(contract_number text, registration_number text, registered_number text, pledgor_identifier text, vins text[])
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT lower(contract_number || ' ' || coalesce(registration_number, '') || ' ' || coalesce(registered_number, '')
               || ' ' || pledgor_identifier || ' ' || array_to_string(vins, ' '))
$function$;

CREATE OR REPLACE FUNCTION public.pw_uuid_v7()
 RETURNS uuid
 LANGUAGE sql
 PARALLEL SAFE
AS $function$
  SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) PLACING
    substring(int8send((extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3) FROM 1 FOR 6), 52, 1), 53, 1),
    'hex')::uuid
$function$;

CREATE OR REPLACE FUNCTION public.raise_check_input_version()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  records_type text := nullif(current_setting('pledgewatch.source_records_type', true), '');
BEGIN
  IF TG_TABLE_NAME = 'source_records' THEN
    UPDATE check_input_versions SET version = version + 1
     WHERE name LIKE 'records:%' AND (records_type IS NULL OR name = 'records:' || records_type);
  ELSE
    UPDATE check_input_versions SET version = version + 1 WHERE name = 'pledge_registry';
  END IF;
  RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION public.ranged_items_by_check(org uuid, item_kind text, descending boolean, n bigint)
 RETURNS TABLE(item_id uuid, checked_at timestamp with time zone)
 LANGUAGE plpgsql
 STABLE
AS $function$
DECLARE
  stamp timestamptz;
  taken bigint := 0;
  added bigint;
BEGIN
  IF n <= 0 THEN
    RETURN;
  END IF;
  FOR stamp IN
    SELECT s.checked_at FROM monitoring_check_ranges s
     WHERE s.organisation_id = org AND s.kind = item_kind
     GROUP BY s.checked_at
     ORDER BY CASE WHEN NOT descending THEN s.checked_at END, CASE WHEN descending THEN s.checked_at END DESC
  LOOP
    RETURN QUERY
      SELECT g.item_id, stamp
        FROM monitoring_check_ranges s CROSS JOIN LATERAL (
          -- OFFSET 0: one index range scan per range, never a join over all ranged items.
          SELECT c.item_id FROM monitoring_item_checks c
           WHERE c.organisation_id = org AND c.kind = item_kind AND c.unranged_since IS NULL
             AND c.identifier >= lower(s.identifiers) AND c.identifier <= upper(s.identifiers)
             AND s.identifiers @> c.identifier
          OFFSET 0) g
       WHERE s.organisation_id = org AND s.kind = item_kind AND s.checked_at = stamp
       ORDER BY CASE WHEN NOT descending THEN g.item_id END, CASE WHEN descending THEN g.item_id END DESC
       LIMIT n - taken;
    GET DIAGNOSTICS added = ROW_COUNT;
    taken := taken + added;
    EXIT WHEN taken >= n;
  END LOOP;
END $function$;

CREATE OR REPLACE FUNCTION public.reserve_source_send(p_type text, p_day date, p_daily_limit integer, p_price numeric, p_account text, p_rate integer, p_window_ms double precision, p_spacing_ms double precision, p_burst_ms double precision)
 RETURNS TABLE(outcome text, send_at_ms double precision, wait_ms double precision)
 LANGUAGE sql
AS $function$
  SELECT * FROM reserve_source_send(p_type, p_day, p_daily_limit, p_price, p_account,
    p_rate, p_window_ms, p_spacing_ms, p_burst_ms, 0)
$function$;

CREATE OR REPLACE FUNCTION public.reserve_source_send(p_type text, p_day date, p_daily_limit integer, p_price numeric, p_account text, p_rate integer, p_window_ms double precision, p_spacing_ms double precision, p_burst_ms double precision, p_lead_ms double precision)
 RETURNS TABLE(outcome text, send_at_ms double precision, wait_ms double precision)
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_window interval := p_window_ms * interval '1 millisecond';
  v_spacing interval := p_spacing_ms * interval '1 millisecond';
  v_burst interval := p_burst_ms * interval '1 millisecond';
  v_lead interval := p_lead_ms * interval '1 millisecond';
  v_paced timestamptz;
  v_recent timestamptz[];
  v_kept integer;
  v_now timestamptz;
  v_pause timestamptz;
  v_blocker timestamptz;
  v_at timestamptz;
  v_counted integer;
BEGIN
  IF p_rate < 1 THEN
    RAISE EXCEPTION 'reserve_source_send: p_rate must be at least 1 (got %)', p_rate;
  END IF;
  INSERT INTO source_rate_slots AS s (source_type, next_slot) VALUES (p_type, '-infinity')
  ON CONFLICT (source_type) DO UPDATE SET next_slot = s.next_slot
  RETURNING s.paced_until, s.recent_sends INTO v_paced, v_recent;
  -- After the lock: no booking of this source can come between this clock and the update below.
  v_now := clock_timestamp();
  SELECT p.paused_until INTO v_pause FROM source_pauses p
   WHERE p.account = p_account AND p.paused_until > v_now;
  IF v_pause IS NOT NULL THEN
    RETURN QUERY SELECT 'paused'::text, NULL::float8, extract(epoch FROM v_pause - v_now)::float8 * 1000;
    RETURN;
  END IF;
  INSERT INTO source_request_days AS d (source_type, day, requests, spend)
  SELECT p_type, p_day, 1, p_price WHERE p_daily_limit IS NULL OR p_daily_limit > 0
  ON CONFLICT (source_type, day) DO UPDATE SET requests = d.requests + 1, spend = d.spend + p_price
   WHERE p_daily_limit IS NULL OR d.requests < p_daily_limit;
  GET DIAGNOSTICS v_counted = ROW_COUNT;
  IF v_counted = 0 THEN
    RETURN QUERY SELECT 'daily_limit'::text, NULL::float8, 0::float8;
    RETURN;
  END IF;
  v_kept := coalesce(cardinality(v_recent), 0);
  v_at := greatest(v_now + v_lead, v_paced - v_burst, coalesce(v_recent[v_kept], v_now));
  -- The p_rate-th newest booking: while it is in the window before v_at, the window is full.
  IF v_kept >= p_rate THEN
    v_blocker := v_recent[v_kept - p_rate + 1];
    IF v_blocker > v_at - v_window THEN
      v_at := v_blocker + v_window;
    END IF;
  END IF;
  UPDATE source_rate_slots
     SET paced_until = greatest(v_paced, v_at - v_burst) + v_spacing,
         recent_sends = (coalesce(v_recent, '{}') || v_at)[greatest(1, v_kept + 2 - p_rate):]
   WHERE source_type = p_type;
  RETURN QUERY SELECT 'reserved'::text, extract(epoch FROM v_at)::float8 * 1000,
    extract(epoch FROM v_at - v_now)::float8 * 1000;
END $function$;

CREATE OR REPLACE FUNCTION public.statistics_delivery_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE statistics_delivery_days SET deliveries = deliveries - 1
     WHERE organisation_id = OLD.organisation_id AND status = OLD.status
       AND day = (OLD.created_at AT TIME ZONE 'Europe/Moscow')::date;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    INSERT INTO statistics_delivery_days AS s (organisation_id, day, status, deliveries)
    VALUES (NEW.organisation_id, (NEW.created_at AT TIME ZONE 'Europe/Moscow')::date, NEW.status, 1)
    ON CONFLICT (organisation_id, day, status) DO UPDATE SET deliveries = s.deliveries + 1;
  END IF;
  RETURN NULL;
END
$function$;

CREATE OR REPLACE FUNCTION public.statistics_events_deleted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  UPDATE statistics_event_days s SET events = s.events - d.events
    FROM (SELECT o.organisation_id, (o.detected_at AT TIME ZONE 'Europe/Moscow')::date AS day, o.event_type,
                 o.source_type,
                 coalesce(i.kind, CASE WHEN o.source_type IN ('bankruptcy', 'enforcement', 'passport')
                                       THEN 'document' ELSE 'vin' END) AS item_kind,
                 count(*)::int AS events
            FROM statistics_old_events o LEFT JOIN monitoring_items i ON i.id = o.item_id
           GROUP BY 1, 2, 3, 4, 5) d
   WHERE s.organisation_id = d.organisation_id AND s.day = d.day AND s.event_type = d.event_type
     AND s.source_type = d.source_type AND s.item_kind = d.item_kind;
  RETURN NULL;
END
$function$;

CREATE OR REPLACE FUNCTION public.statistics_events_inserted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO statistics_event_days AS s (organisation_id, day, event_type, source_type, item_kind, events)
  SELECT n.organisation_id, (n.detected_at AT TIME ZONE 'Europe/Moscow')::date, n.event_type, n.source_type,
         i.kind, count(*)
    FROM statistics_new_events n JOIN monitoring_items i ON i.id = n.item_id
   GROUP BY 1, 2, 3, 4, 5
   ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (organisation_id, day, event_type, source_type, item_kind)
  DO UPDATE SET events = s.events + EXCLUDED.events;
  RETURN NULL;
END
$function$;

CREATE OR REPLACE FUNCTION public.statistics_item_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF (OLD.created_at, OLD.kind, OLD.organisation_id) IS DISTINCT FROM (NEW.created_at, NEW.kind, NEW.organisation_id) THEN
    INSERT INTO statistics_item_days AS s (organisation_id, day, kind, added)
    VALUES (OLD.organisation_id, (OLD.created_at AT TIME ZONE 'Europe/Moscow')::date, OLD.kind, -1)
    ON CONFLICT (organisation_id, day, kind, part) DO UPDATE SET added = s.added - 1;
    INSERT INTO statistics_item_days AS s (organisation_id, day, kind, added)
    VALUES (NEW.organisation_id, (NEW.created_at AT TIME ZONE 'Europe/Moscow')::date, NEW.kind, 1)
    ON CONFLICT (organisation_id, day, kind, part) DO UPDATE SET added = s.added + 1;
  END IF;
  IF OLD.archived_at IS NOT NULL THEN
    INSERT INTO statistics_item_days AS s (organisation_id, day, kind, archived)
    VALUES (OLD.organisation_id, (OLD.archived_at AT TIME ZONE 'Europe/Moscow')::date, OLD.kind, -1)
    ON CONFLICT (organisation_id, day, kind, part) DO UPDATE SET archived = s.archived - 1;
  END IF;
  IF NEW.archived_at IS NOT NULL THEN
    INSERT INTO statistics_item_days AS s (organisation_id, day, kind, archived)
    VALUES (NEW.organisation_id, (NEW.archived_at AT TIME ZONE 'Europe/Moscow')::date, NEW.kind, 1)
    ON CONFLICT (organisation_id, day, kind, part) DO UPDATE SET archived = s.archived + 1;
  END IF;
  RETURN NULL;
END
$function$;

CREATE OR REPLACE FUNCTION public.statistics_items_deleted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO statistics_item_days AS s (organisation_id, day, kind, added, archived)
  SELECT organisation_id, day, kind, -sum(added), -sum(archived)
    FROM (SELECT organisation_id, (created_at AT TIME ZONE 'Europe/Moscow')::date AS day, kind, 1 AS added,
                 0 AS archived
            FROM statistics_old_items
          UNION ALL
          SELECT organisation_id, (archived_at AT TIME ZONE 'Europe/Moscow')::date, kind, 0, 1
            FROM statistics_old_items WHERE archived_at IS NOT NULL) x
   WHERE EXISTS (SELECT 1 FROM organisations o WHERE o.id = x.organisation_id)
   GROUP BY 1, 2, 3
   ORDER BY 1, 2, 3
  ON CONFLICT (organisation_id, day, kind, part)
  DO UPDATE SET added = s.added + EXCLUDED.added, archived = s.archived + EXCLUDED.archived;
  RETURN NULL;
END
$function$;

CREATE OR REPLACE FUNCTION public.statistics_items_inserted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO statistics_item_days AS s (organisation_id, day, kind, part, added, archived)
  SELECT organisation_id, day, kind, statistics_writer_part(), sum(added), sum(archived)
    FROM (SELECT organisation_id, (created_at AT TIME ZONE 'Europe/Moscow')::date AS day, kind, 1 AS added, 0 AS archived
            FROM statistics_new_items
          UNION ALL
          SELECT organisation_id, (archived_at AT TIME ZONE 'Europe/Moscow')::date, kind, 0, 1
            FROM statistics_new_items WHERE archived_at IS NOT NULL) x
   GROUP BY 1, 2, 3
   ORDER BY 1, 2, 3
  ON CONFLICT (organisation_id, day, kind, part)
  DO UPDATE SET added = s.added + EXCLUDED.added, archived = s.archived + EXCLUDED.archived;
  RETURN NULL;
END
$function$;

CREATE OR REPLACE FUNCTION public.statistics_label_count_item(p_org uuid, p_label text, p_kind text, p_created timestamp with time zone, p_archived timestamp with time zone, p_sign integer)
 RETURNS void
 LANGUAGE sql
AS $function$
  INSERT INTO statistics_labels (organisation_id, label)
  SELECT p_org, lower(p_label) WHERE p_label IS NOT NULL AND p_sign > 0
  ON CONFLICT DO NOTHING;
  INSERT INTO statistics_label_item_days AS s (organisation_id, label, day, kind, added, archived)
  SELECT p_org, lower(p_label), day, p_kind, p_sign * sum(added), p_sign * sum(arch)
    FROM (SELECT (p_created AT TIME ZONE 'Europe/Moscow')::date AS day, 1 AS added, 0 AS arch
          UNION ALL
          SELECT (p_archived AT TIME ZONE 'Europe/Moscow')::date, 0, 1 WHERE p_archived IS NOT NULL) x
   WHERE p_label IS NOT NULL
   GROUP BY day
   ORDER BY day
  ON CONFLICT (organisation_id, label, day, kind, part)
  DO UPDATE SET added = s.added + EXCLUDED.added, archived = s.archived + EXCLUDED.archived;
$function$;

CREATE OR REPLACE FUNCTION public.statistics_label_events_deleted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  UPDATE statistics_label_event_days s SET events = s.events - d.events
    FROM (SELECT o.organisation_id, lower(i.label) AS label, (o.detected_at AT TIME ZONE 'Europe/Moscow')::date AS day,
                 o.event_type, o.source_type, i.kind AS item_kind, count(*)::int AS events
            FROM statistics_label_old_events o JOIN monitoring_items i ON i.id = o.item_id
           WHERE i.label IS NOT NULL
           GROUP BY 1, 2, 3, 4, 5, 6) d
   WHERE s.organisation_id = d.organisation_id AND s.label = d.label AND s.day = d.day
     AND s.event_type = d.event_type AND s.source_type = d.source_type AND s.item_kind = d.item_kind;
  RETURN NULL;
END
$function$;

CREATE OR REPLACE FUNCTION public.statistics_label_events_inserted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO statistics_label_event_days AS s
    (organisation_id, label, day, event_type, source_type, item_kind, events)
  SELECT n.organisation_id, lower(i.label), (n.detected_at AT TIME ZONE 'Europe/Moscow')::date, n.event_type,
         n.source_type, i.kind, count(*)
    FROM statistics_label_new_events n JOIN monitoring_items i ON i.id = n.item_id
   WHERE i.label IS NOT NULL
   GROUP BY 1, 2, 3, 4, 5, 6
   ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT (organisation_id, label, day, event_type, source_type, item_kind)
  DO UPDATE SET events = s.events + EXCLUDED.events;
  RETURN NULL;
END
$function$;

CREATE OR REPLACE FUNCTION public.statistics_label_item_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM statistics_label_count_item(OLD.organisation_id, OLD.label, OLD.kind, OLD.created_at, OLD.archived_at, -1);
  PERFORM statistics_label_count_item(NEW.organisation_id, NEW.label, NEW.kind, NEW.created_at, NEW.archived_at, 1);
  IF (lower(OLD.label), OLD.kind, OLD.organisation_id) IS DISTINCT FROM (lower(NEW.label), NEW.kind, NEW.organisation_id) THEN
    PERFORM statistics_label_move_events(OLD.organisation_id, OLD.id, OLD.label, OLD.kind, -1);
    PERFORM statistics_label_move_events(NEW.organisation_id, NEW.id, NEW.label, NEW.kind, 1);
  END IF;
  RETURN NULL;
END
$function$;

CREATE OR REPLACE FUNCTION public.statistics_label_item_deleting()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  -- The whole organisation going (cascade, its row already deleted): its rollups go with it.
  IF OLD.label IS NOT NULL AND EXISTS (SELECT 1 FROM organisations WHERE id = OLD.organisation_id) THEN
    PERFORM statistics_label_count_item(OLD.organisation_id, OLD.label, OLD.kind, OLD.created_at, OLD.archived_at, -1);
    PERFORM statistics_label_move_events(OLD.organisation_id, OLD.id, OLD.label, OLD.kind, -1);
  END IF;
  RETURN OLD;
END
$function$;

CREATE OR REPLACE FUNCTION public.statistics_label_items_inserted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF current_setting('pledgewatch.defer_label_dictionary', true) IS DISTINCT FROM 'on' THEN
    INSERT INTO statistics_labels (organisation_id, label)
    SELECT DISTINCT organisation_id, lower(label) FROM statistics_label_new_items WHERE label IS NOT NULL
     ORDER BY 1, 2
    ON CONFLICT DO NOTHING;
  ELSE
    INSERT INTO statistics_labels_pending (organisation_id, labels)
    SELECT organisation_id, array_agg(DISTINCT lower(label)) FROM statistics_label_new_items
     WHERE label IS NOT NULL GROUP BY organisation_id;
  END IF;
  INSERT INTO statistics_label_item_days AS s (organisation_id, label, day, kind, part, added, archived)
  SELECT organisation_id, label, day, kind, statistics_writer_part(), sum(added), sum(archived)
    FROM (SELECT organisation_id, lower(label) AS label, (created_at AT TIME ZONE 'Europe/Moscow')::date AS day, kind,
                 1 AS added, 0 AS archived
            FROM statistics_label_new_items WHERE label IS NOT NULL
          UNION ALL
          SELECT organisation_id, lower(label), (archived_at AT TIME ZONE 'Europe/Moscow')::date, kind, 0, 1
            FROM statistics_label_new_items WHERE label IS NOT NULL AND archived_at IS NOT NULL) x
   GROUP BY 1, 2, 3, 4
   ORDER BY 1, 2, 3, 4
  ON CONFLICT (organisation_id, label, day, kind, part)
  DO UPDATE SET added = s.added + EXCLUDED.added, archived = s.archived + EXCLUDED.archived;
  RETURN NULL;
END
$function$;

CREATE OR REPLACE FUNCTION public.statistics_label_move_events(p_org uuid, p_item uuid, p_label text, p_kind text, p_sign integer)
 RETURNS void
 LANGUAGE sql
AS $function$
  UPDATE statistics_label_event_days s SET events = s.events - d.events
    FROM (SELECT (e.detected_at AT TIME ZONE 'Europe/Moscow')::date AS day, e.event_type, e.source_type,
                 count(*)::int AS events
            FROM monitoring_events e WHERE e.item_id = p_item
           GROUP BY 1, 2, 3) d
   WHERE p_sign < 0 AND p_label IS NOT NULL AND s.organisation_id = p_org AND s.label = lower(p_label)
     AND s.day = d.day AND s.event_type = d.event_type AND s.source_type = d.source_type AND s.item_kind = p_kind;
  INSERT INTO statistics_label_event_days AS s
    (organisation_id, label, day, event_type, source_type, item_kind, events)
  SELECT p_org, lower(p_label), (e.detected_at AT TIME ZONE 'Europe/Moscow')::date, e.event_type, e.source_type,
         p_kind, count(*)
    FROM monitoring_events e
   WHERE p_sign > 0 AND e.item_id = p_item AND p_label IS NOT NULL
   GROUP BY 1, 2, 3, 4, 5, 6
   ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT (organisation_id, label, day, event_type, source_type, item_kind)
  DO UPDATE SET events = s.events + EXCLUDED.events;
$function$;

CREATE OR REPLACE FUNCTION public.statistics_one_time_check_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE statistics_one_time_check_days SET checks = checks - 1
     WHERE organisation_id = OLD.organisation_id AND kind = OLD.kind
       AND day = (OLD.created_at AT TIME ZONE 'Europe/Moscow')::date;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    INSERT INTO statistics_one_time_check_days AS s (organisation_id, day, kind, checks)
    VALUES (NEW.organisation_id, (NEW.created_at AT TIME ZONE 'Europe/Moscow')::date, NEW.kind, 1)
    ON CONFLICT (organisation_id, day, kind) DO UPDATE SET checks = s.checks + 1;
  END IF;
  RETURN NULL;
END
$function$;

CREATE OR REPLACE FUNCTION public.statistics_writer_part()
 RETURNS integer
 LANGUAGE sql
 STABLE
AS $function$
  SELECT CASE WHEN current_setting('pledgewatch.defer_label_dictionary', true) = 'on' THEN pg_backend_pid() ELSE 0 END
$function$;

CREATE OR REPLACE FUNCTION public.take_source_send(p_type text, p_rate integer, p_window_ms double precision, p_queued boolean, p_spacing_ms double precision DEFAULT 0, p_burst_ms double precision DEFAULT 0)
 RETURNS TABLE(admitted boolean, sent_at_ms double precision, wait_ms double precision)
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_window interval := p_window_ms * interval '1 millisecond';
  v_spacing interval := p_spacing_ms * interval '1 millisecond';
  v_burst interval := p_burst_ms * interval '1 millisecond';
  v_next timestamptz;
  v_paced timestamptz;
  v_now timestamptz;
  v_blocker timestamptz;
  v_at timestamptz;
BEGIN
  INSERT INTO source_rate_slots AS s (source_type, next_slot) VALUES (p_type, '-infinity')
  ON CONFLICT (source_type) DO UPDATE SET next_slot = s.next_slot
  RETURNING s.next_slot, s.paced_until INTO v_next, v_paced;
  -- After the lock: the clock of the admission, never earlier than any admission before it.
  v_now := clock_timestamp();
  -- The p_rate-th newest send in the window: while it is there, the window is full.
  SELECT r.sent_at INTO v_blocker FROM source_rate_sends r
   WHERE r.source_type = p_type AND r.sent_at > v_now - v_window
   ORDER BY r.sent_at DESC OFFSET greatest(p_rate, 1) - 1 LIMIT 1;
  IF v_blocker IS NULL AND p_rate > 0 AND v_now >= v_paced - v_burst THEN
    INSERT INTO source_rate_sends (source_type, sent_at) VALUES (p_type, v_now);
    DELETE FROM source_rate_sends r WHERE r.source_type = p_type AND r.sent_at <= v_now - v_window;
    UPDATE source_rate_slots SET paced_until = greatest(v_paced, v_now - v_burst) + v_spacing
     WHERE source_type = p_type;
    RETURN QUERY SELECT true, extract(epoch FROM v_now)::float8 * 1000, 0::float8;
    RETURN;
  END IF;
  -- Room again when the blocker leaves the window and the pacing has come round.
  v_at := greatest(coalesce(v_blocker + v_window, v_now), v_paced - v_burst);
  IF v_blocker IS NULL AND p_rate <= 0 THEN
    v_at := v_now + v_window;
  END IF;
  IF NOT p_queued THEN
    v_at := greatest(v_next, v_at);
    UPDATE source_rate_slots
       SET next_slot = v_at + CASE WHEN p_spacing_ms > 0 THEN v_spacing ELSE v_window / greatest(p_rate, 1) END
     WHERE source_type = p_type;
  END IF;
  RETURN QUERY SELECT false, NULL::float8, extract(epoch FROM v_at - v_now)::float8 * 1000;
END $function$;

CREATE TRIGGER check_runs_forget_writes AFTER DELETE ON check_runs REFERENCING OLD TABLE AS old_runs FOR EACH STATEMENT EXECUTE FUNCTION check_runs_forget_writes();
CREATE TRIGGER monitoring_event_severity_days_delete AFTER DELETE ON monitoring_events REFERENCING OLD TABLE AS severity_old_events FOR EACH STATEMENT EXECUTE FUNCTION monitoring_event_severity_days_deleted();
CREATE TRIGGER monitoring_event_severity_days_insert AFTER INSERT ON monitoring_events REFERENCING NEW TABLE AS severity_new_events FOR EACH STATEMENT EXECUTE FUNCTION monitoring_event_severity_days_inserted();
CREATE TRIGGER monitoring_events_unread_delete AFTER DELETE ON monitoring_events REFERENCING OLD TABLE AS unread_old_events FOR EACH STATEMENT EXECUTE FUNCTION monitoring_events_unread_deleted();
CREATE TRIGGER monitoring_events_unread_insert AFTER INSERT ON monitoring_events REFERENCING NEW TABLE AS unread_new_events FOR EACH STATEMENT EXECUTE FUNCTION monitoring_events_unread_inserted();
CREATE TRIGGER monitoring_events_unread_update AFTER UPDATE ON monitoring_events REFERENCING OLD TABLE AS unread_old_events NEW TABLE AS unread_new_events FOR EACH STATEMENT EXECUTE FUNCTION monitoring_events_unread_updated();
CREATE TRIGGER statistics_events_delete AFTER DELETE ON monitoring_events REFERENCING OLD TABLE AS statistics_old_events FOR EACH STATEMENT EXECUTE FUNCTION statistics_events_deleted();
CREATE TRIGGER statistics_events_insert AFTER INSERT ON monitoring_events REFERENCING NEW TABLE AS statistics_new_events FOR EACH STATEMENT EXECUTE FUNCTION statistics_events_inserted();
CREATE TRIGGER statistics_label_events_delete AFTER DELETE ON monitoring_events REFERENCING OLD TABLE AS statistics_label_old_events FOR EACH STATEMENT EXECUTE FUNCTION statistics_label_events_deleted();
CREATE TRIGGER statistics_label_events_insert AFTER INSERT ON monitoring_events REFERENCING NEW TABLE AS statistics_label_new_events FOR EACH STATEMENT EXECUTE FUNCTION statistics_label_events_inserted();
CREATE TRIGGER monitoring_item_checks_delete AFTER DELETE ON monitoring_items REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION monitoring_item_checks_deleted();
CREATE TRIGGER monitoring_item_checks_insert AFTER INSERT ON monitoring_items REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION monitoring_item_checks_inserted();
CREATE TRIGGER monitoring_item_checks_stamp AFTER UPDATE OF last_checked_at ON monitoring_items FOR EACH ROW WHEN (old.last_checked_at IS DISTINCT FROM new.last_checked_at) EXECUTE FUNCTION monitoring_item_checks_stamped();
CREATE TRIGGER monitoring_item_checks_status AFTER UPDATE OF status ON monitoring_items FOR EACH ROW WHEN (old.status IS DISTINCT FROM new.status) EXECUTE FUNCTION monitoring_item_checks_status_changed();
CREATE TRIGGER monitoring_item_revisions_delete AFTER DELETE ON monitoring_items REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION monitoring_item_revisions_deleted();
CREATE TRIGGER monitoring_item_revisions_insert AFTER INSERT ON monitoring_items REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION monitoring_item_revisions_inserted();
CREATE TRIGGER monitoring_item_revisions_update AFTER UPDATE OF organisation_id, kind, status, identifier, document_type, label, contract_number, created_at ON monitoring_items FOR EACH ROW WHEN (old.organisation_id IS DISTINCT FROM new.organisation_id OR old.kind IS DISTINCT FROM new.kind OR old.status IS DISTINCT FROM new.status OR old.identifier IS DISTINCT FROM new.identifier OR old.document_type IS DISTINCT FROM new.document_type OR old.label IS DISTINCT FROM new.label OR old.contract_number IS DISTINCT FROM new.contract_number OR old.created_at IS DISTINCT FROM new.created_at) EXECUTE FUNCTION monitoring_item_revisions_updated();
CREATE TRIGGER monitoring_items_count_delete AFTER DELETE ON monitoring_items REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION monitoring_items_count_deleted();
CREATE TRIGGER monitoring_items_count_insert AFTER INSERT ON monitoring_items REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION monitoring_items_count_inserted();
CREATE TRIGGER monitoring_items_count_update AFTER UPDATE OF status, kind, organisation_id ON monitoring_items FOR EACH ROW WHEN (old.status IS DISTINCT FROM new.status OR old.kind IS DISTINCT FROM new.kind OR old.organisation_id IS DISTINCT FROM new.organisation_id) EXECUTE FUNCTION monitoring_items_count_updated();
CREATE TRIGGER statistics_items_delete AFTER DELETE ON monitoring_items REFERENCING OLD TABLE AS statistics_old_items FOR EACH STATEMENT EXECUTE FUNCTION statistics_items_deleted();
CREATE TRIGGER statistics_items_insert AFTER INSERT ON monitoring_items REFERENCING NEW TABLE AS statistics_new_items FOR EACH STATEMENT EXECUTE FUNCTION statistics_items_inserted();
CREATE TRIGGER statistics_items_update AFTER UPDATE OF created_at, archived_at, kind, organisation_id ON monitoring_items FOR EACH ROW WHEN (old.created_at IS DISTINCT FROM new.created_at OR old.archived_at IS DISTINCT FROM new.archived_at OR old.kind IS DISTINCT FROM new.kind OR old.organisation_id IS DISTINCT FROM new.organisation_id) EXECUTE FUNCTION statistics_item_changed();
CREATE TRIGGER statistics_label_items_delete BEFORE DELETE ON monitoring_items FOR EACH ROW EXECUTE FUNCTION statistics_label_item_deleting();
CREATE TRIGGER statistics_label_items_insert AFTER INSERT ON monitoring_items REFERENCING NEW TABLE AS statistics_label_new_items FOR EACH STATEMENT EXECUTE FUNCTION statistics_label_items_inserted();
CREATE TRIGGER statistics_label_items_update AFTER UPDATE OF label, created_at, archived_at, kind, organisation_id ON monitoring_items FOR EACH ROW WHEN (lower(old.label) IS DISTINCT FROM lower(new.label) OR old.created_at IS DISTINCT FROM new.created_at OR old.archived_at IS DISTINCT FROM new.archived_at OR old.kind IS DISTINCT FROM new.kind OR old.organisation_id IS DISTINCT FROM new.organisation_id) EXECUTE FUNCTION statistics_label_item_changed();
CREATE TRIGGER statistics_deliveries_insert AFTER INSERT OR DELETE ON notification_deliveries FOR EACH ROW EXECUTE FUNCTION statistics_delivery_changed();
CREATE TRIGGER statistics_deliveries_update AFTER UPDATE OF status, created_at, organisation_id ON notification_deliveries FOR EACH ROW WHEN (old.status IS DISTINCT FROM new.status OR old.created_at IS DISTINCT FROM new.created_at OR old.organisation_id IS DISTINCT FROM new.organisation_id) EXECUTE FUNCTION statistics_delivery_changed();
CREATE TRIGGER statistics_one_time_checks_insert AFTER INSERT OR DELETE ON one_time_checks FOR EACH ROW EXECUTE FUNCTION statistics_one_time_check_changed();
CREATE TRIGGER statistics_one_time_checks_update AFTER UPDATE OF kind, created_at, organisation_id ON one_time_checks FOR EACH ROW WHEN (old.kind IS DISTINCT FROM new.kind OR old.created_at IS DISTINCT FROM new.created_at OR old.organisation_id IS DISTINCT FROM new.organisation_id) EXECUTE FUNCTION statistics_one_time_check_changed();
CREATE TRIGGER organisations_forget_items AFTER DELETE ON organisations FOR EACH ROW EXECUTE FUNCTION organisations_forget_items();
CREATE TRIGGER pledge_vehicles_raise_check_input_version AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON pledge_vehicles FOR EACH STATEMENT EXECUTE FUNCTION raise_check_input_version();
CREATE TRIGGER pledges_raise_check_input_version AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON pledges FOR EACH STATEMENT EXECUTE FUNCTION raise_check_input_version();
CREATE TRIGGER source_records_raise_check_input_version AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON source_records FOR EACH STATEMENT EXECUTE FUNCTION raise_check_input_version();
CREATE TRIGGER uploads_forget_items AFTER DELETE ON uploads FOR EACH ROW EXECUTE FUNCTION monitoring_items_forget_upload();
CREATE TRIGGER users_forget_items AFTER DELETE ON users FOR EACH ROW EXECUTE FUNCTION monitoring_items_forget_user();
