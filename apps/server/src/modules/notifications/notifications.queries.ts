import type {
  DeliveryStatus,
  EventType,
  NotificationMethod,
  NotificationMode,
  NotificationRuleInput,
  NotificationSubject,
  Severity,
  SourceAlert,
  SourceType,
} from '@pledgewatch/contract';
import type { Queryable } from '../../db/pool.ts';

export interface RuleRow {
  id: string;
  organisation_id: string;
  name: string;
  enabled: boolean;
  event_types: EventType[];
  min_severity: Severity;
  item_label: string | null;
  item_contract: string | null;
  method: NotificationMethod;
  recipients: string[];
  config: Record<string, string>;
  mode: NotificationMode;
  digest_hour: number;
  last_digest_on: string | null;
  subject: NotificationSubject;
  source_type: SourceType | null;
  failure_threshold: number;
  stale_hours: number;
  notify_recovery: boolean;
  created_at: Date;
  updated_at: Date;
}

const RULE_COLUMNS = `id, organisation_id, name, enabled, event_types, min_severity, item_label, item_contract,
  method, recipients, config, mode, digest_hour, last_digest_on::text AS last_digest_on, subject, source_type,
  failure_threshold, stale_hours, notify_recovery, created_at, updated_at`;

export async function listRules(db: Queryable, organisationId: string): Promise<RuleRow[]> {
  const { rows } = await db.query<RuleRow>(
    `SELECT ${RULE_COLUMNS} FROM notification_rules WHERE organisation_id = $1 ORDER BY created_at, id`,
    [organisationId],
  );
  return rows;
}

export async function listEnabledRules(db: Queryable, organisationId: string): Promise<RuleRow[]> {
  const { rows } = await db.query<RuleRow>(
    `SELECT ${RULE_COLUMNS} FROM notification_rules
      WHERE organisation_id = $1 AND enabled AND subject = 'events' ORDER BY created_at, id`,
    [organisationId],
  );
  return rows;
}

/** Enabled rules that watch the sources, of every organisation (sources are shared). */
export async function listSourceRules(db: Queryable): Promise<RuleRow[]> {
  const { rows } = await db.query<RuleRow>(
    `SELECT ${RULE_COLUMNS} FROM notification_rules
      WHERE enabled AND subject IN ('source_failure', 'source_stale') ORDER BY created_at, id`,
  );
  return rows;
}

export async function getRule(
  db: Queryable,
  organisationId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<RuleRow | undefined> {
  const { rows } = await db.query<RuleRow>(
    `SELECT ${RULE_COLUMNS} FROM notification_rules WHERE organisation_id = $1 AND id = $2
     ${options.forUpdate ? 'FOR UPDATE' : ''}`,
    [organisationId, id],
  );
  return rows[0];
}

const ruleValues = (rule: NotificationRuleInput) => [
  rule.name,
  rule.enabled,
  rule.eventTypes,
  rule.minSeverity,
  rule.itemFilter.label,
  rule.itemFilter.contractNumber,
  rule.method,
  rule.recipients,
  rule.config,
  rule.mode,
  rule.digestHour,
  rule.subject,
  rule.sourceType,
  rule.failureThreshold,
  rule.staleHours,
  rule.notifyRecovery,
];

export async function insertRule(
  db: Queryable,
  organisationId: string,
  userId: string,
  rule: NotificationRuleInput,
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO notification_rules (name, enabled, event_types, min_severity, item_label, item_contract, method,
       recipients, config, mode, digest_hour, subject, source_type, failure_threshold, stale_hours,
       notify_recovery, organisation_id, created_by, updated_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $18) RETURNING id`,
    [...ruleValues(rule), organisationId, userId],
  );
  return rows[0]!.id;
}

export async function updateRule(
  db: Queryable,
  organisationId: string,
  id: string,
  userId: string,
  rule: NotificationRuleInput,
): Promise<void> {
  await db.query(
    `UPDATE notification_rules
        SET name = $1, enabled = $2, event_types = $3, min_severity = $4, item_label = $5, item_contract = $6,
            method = $7, recipients = $8, config = $9, mode = $10, digest_hour = $11, subject = $12,
            source_type = $13, failure_threshold = $14, stale_hours = $15, notify_recovery = $16,
            updated_by = $19, updated_at = now()
      WHERE organisation_id = $17 AND id = $18`,
    [...ruleValues(rule), organisationId, id, userId],
  );
}

export async function deleteRules(db: Queryable, organisationId: string, ids: string[]): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    'DELETE FROM notification_rules WHERE organisation_id = $1 AND id = ANY($2::uuid[]) RETURNING id',
    [organisationId, ids],
  );
  return rows.map((row) => row.id);
}

// ─── Events as notifications show them ──────────────────────────────────────────────────────

export interface EventRow {
  id: string;
  organisation_id: string;
  run_id: string | null;
  event_type: EventType;
  severity: Severity;
  source_type: string;
  finding_key: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  demo: boolean;
  detected_at: Date;
  item_id: string;
  item_kind: 'vin' | 'document';
  document_type: string | null;
  identifier: string;
  label: string | null;
  contract_number: string | null;
}

/** Events of one organisation by id (ids of another organisation are simply not found). */
export async function getEvents(db: Queryable, organisationId: string, ids: string[]): Promise<EventRow[]> {
  if (ids.length === 0) {
    return [];
  }
  const { rows } = await db.query<EventRow>(
    `SELECT e.id, e.organisation_id, e.run_id, e.event_type, e.severity, e.source_type, e.finding_key,
            e.before, e.after, e.demo, e.detected_at,
            i.id AS item_id, i.kind AS item_kind, i.document_type, i.identifier, i.label, i.contract_number
       FROM monitoring_events e
       JOIN monitoring_items i ON i.id = e.item_id
      WHERE e.organisation_id = $1 AND e.id = ANY($2::uuid[])
      ORDER BY e.detected_at, e.id`,
    [organisationId, ids],
  );
  return rows;
}

// ─── Digest items ───────────────────────────────────────────────────────────────────────────

export async function insertDigestItems(
  db: Queryable,
  items: { ruleId: string; eventId: string; runId: string | null }[],
): Promise<void> {
  if (items.length === 0) {
    return;
  }
  await db.query(
    `INSERT INTO notification_digest_items (rule_id, event_id, run_id)
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[])
     ON CONFLICT DO NOTHING`,
    [items.map((i) => i.ruleId), items.map((i) => i.eventId), items.map((i) => i.runId)],
  );
}

/** Takes (and removes) the events waiting for a rule's digest; `runId` narrows to one run. */
export async function takeDigestItems(db: Queryable, ruleId: string, runId?: string): Promise<string[]> {
  const { rows } = await db.query<{ event_id: string }>(
    `DELETE FROM notification_digest_items WHERE rule_id = $1 AND ($2::uuid IS NULL OR run_id = $2)
     RETURNING event_id`,
    [ruleId, runId ?? null],
  );
  return rows.map((row) => row.event_id);
}

/** Rule and run pairs whose run has finished: their per-run digest is due. */
export async function findDueRunDigests(
  db: Queryable,
): Promise<{ rule_id: string; organisation_id: string; run_id: string }[]> {
  const { rows } = await db.query<{ rule_id: string; organisation_id: string; run_id: string }>(
    `SELECT DISTINCT d.rule_id, r.organisation_id, d.run_id
       FROM notification_digest_items d
       JOIN notification_rules r ON r.id = d.rule_id
       JOIN check_runs cr ON cr.id = d.run_id
      WHERE r.enabled AND r.mode <> 'daily' AND cr.status NOT IN ('queued', 'running')
      LIMIT 500`,
  );
  return rows;
}

/** Daily-digest rules whose hour (Moscow) has come and that have not had today's digest yet. */
export async function findDueDailyRules(
  db: Queryable,
  moscow: { date: string; hour: number },
): Promise<{ id: string; organisation_id: string }[]> {
  const { rows } = await db.query<{ id: string; organisation_id: string }>(
    `SELECT id, organisation_id FROM notification_rules
      WHERE enabled AND mode = 'daily' AND digest_hour <= $2
        AND (last_digest_on IS NULL OR last_digest_on < $1::date)
      LIMIT 500`,
    [moscow.date, moscow.hour],
  );
  return rows;
}

export async function setLastDigestOn(db: Queryable, ruleId: string, date: string): Promise<void> {
  await db.query('UPDATE notification_rules SET last_digest_on = $2::date WHERE id = $1', [ruleId, date]);
}

// ─── Deliveries ─────────────────────────────────────────────────────────────────────────────

export interface DeliveryRow {
  id: string;
  organisation_id: string;
  rule_id: string | null;
  rule_name: string;
  method: NotificationMethod;
  recipient: string;
  kind: 'event' | 'digest' | 'test' | 'source';
  event_ids: string[];
  payload: SourceAlert | null;
  dedupe_key: string;
  status: DeliveryStatus;
  attempts: number;
  max_attempts: number;
  last_error: string | null;
  lease_until: Date | null;
  created_at: Date;
  last_attempt_at: Date | null;
  sent_at: Date | null;
}

export interface NewDelivery {
  organisationId: string;
  ruleId: string;
  ruleName: string;
  method: NotificationMethod;
  recipient: string;
  kind: DeliveryRow['kind'];
  eventIds: string[];
  dedupeKey: string;
  maxAttempts: number;
  /** A source alert's content (kind `source`). */
  payload?: SourceAlert;
}

/** Inserts deliveries; one already made for the same key is left alone. Returns the new ids. */
export async function insertDeliveries(db: Queryable, deliveries: NewDelivery[]): Promise<string[]> {
  if (deliveries.length === 0) {
    return [];
  }
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO notification_deliveries
       (organisation_id, rule_id, rule_name, method, recipient, kind, event_ids, dedupe_key, max_attempts,
        payload)
     SELECT o, r, rn, m, rc, k, COALESCE(string_to_array(NULLIF(ev, ''), ',')::uuid[], '{}'), dk, ma, pl
       FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                   $8::text[], $9::int[], $10::jsonb[]) AS t(o, r, rn, m, rc, k, ev, dk, ma, pl)
     ON CONFLICT (dedupe_key) DO NOTHING
     RETURNING id`,
    [
      deliveries.map((d) => d.organisationId),
      deliveries.map((d) => d.ruleId),
      deliveries.map((d) => d.ruleName),
      deliveries.map((d) => d.method),
      deliveries.map((d) => d.recipient),
      deliveries.map((d) => d.kind),
      deliveries.map((d) => d.eventIds.join(',')),
      deliveries.map((d) => d.dedupeKey),
      deliveries.map((d) => d.maxAttempts),
      deliveries.map((d) => (d.payload ? JSON.stringify(d.payload) : null)),
    ],
  );
  return rows.map((row) => row.id);
}

export async function getDelivery(db: Queryable, id: string): Promise<DeliveryRow | undefined> {
  const { rows } = await db.query<DeliveryRow>('SELECT * FROM notification_deliveries WHERE id = $1', [id]);
  return rows[0];
}

/**
 * Takes a delivery for one try: only a waiting one, or one whose previous worker's lease ran out
 * (it died mid-send). Two workers never hold the same delivery at once.
 */
export async function claimDelivery(
  db: Queryable,
  id: string,
  leaseSeconds: number,
): Promise<DeliveryRow | undefined> {
  const { rows } = await db.query<DeliveryRow>(
    `UPDATE notification_deliveries
        SET status = 'sending', attempts = attempts + 1, last_attempt_at = now(),
            lease_until = now() + make_interval(secs => $2)
      WHERE id = $1
        AND (status IN ('queued', 'retrying') OR (status = 'sending' AND lease_until < now()))
      RETURNING *`,
    [id, leaseSeconds],
  );
  return rows[0];
}

export async function markDeliverySent(db: Queryable, id: string): Promise<void> {
  await db.query(
    `UPDATE notification_deliveries SET status = 'sent', sent_at = now(), lease_until = NULL, last_error = NULL
      WHERE id = $1`,
    [id],
  );
}

export async function markDeliveryFailedTry(
  db: Queryable,
  id: string,
  update: { final: boolean; error: string },
): Promise<void> {
  await db.query(
    `UPDATE notification_deliveries SET status = $2, last_error = $3, lease_until = NULL WHERE id = $1`,
    [id, update.final ? 'failed' : 'retrying', update.error.slice(0, 1000)],
  );
}

export interface DeliveryListRow extends DeliveryRow {
  event_count: number;
  event_id: string | null;
  event_type: EventType | null;
  identifier: string | null;
  label: string | null;
}

export async function findDeliveries(
  db: Queryable,
  filter: {
    organisationId: string;
    status?: DeliveryStatus;
    ruleId?: string;
    limit: number;
    offset: number;
  },
): Promise<{ items: DeliveryListRow[]; total: number }> {
  const where = `d.organisation_id = $1 AND ($2::text IS NULL OR d.status = $2) AND ($3::uuid IS NULL OR d.rule_id = $3)`;
  const params = [filter.organisationId, filter.status ?? null, filter.ruleId ?? null];
  const [items, total] = await Promise.all([
    db.query<DeliveryListRow>(
      `SELECT d.*, cardinality(d.event_ids) AS event_count,
              e.id AS event_id, e.event_type, i.identifier, i.label
         FROM notification_deliveries d
         LEFT JOIN monitoring_events e ON e.id = d.event_ids[1] AND e.organisation_id = d.organisation_id
         LEFT JOIN monitoring_items i ON i.id = e.item_id
        WHERE ${where}
        ORDER BY d.created_at DESC, d.id DESC
        LIMIT $4 OFFSET $5`,
      [...params, filter.limit, filter.offset],
    ),
    db.query<{ count: number }>(
      `SELECT count(*) AS count FROM notification_deliveries d WHERE ${where}`,
      params,
    ),
  ]);
  return { items: items.rows, total: total.rows[0]!.count };
}
