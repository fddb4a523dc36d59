import { randomUUID } from 'node:crypto';
import {
  createNotificationRuleBodySchema,
  type DeliveriesResponse,
  type DeliveryStatus,
  EVENT_TYPES,
  maskSecret,
  type NotificationRule,
  type NotificationRuleInput,
  type NotificationRulesResponse,
  SECRET_CONFIG_KEYS,
  SEVERITIES,
  type UpdateNotificationRuleBody,
} from '@pledgewatch/contract';
import type pg from 'pg';
import { type Queryable, withTransaction } from '../../db/pool.ts';
import type { JobQueue } from '../../jobs/job-definition.ts';
import { AppError } from '../../lib/app-error.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { moscowClock } from '../../lib/moscow-time.ts';
import { checkOutboundUrl, OutboundError, type OutboundPolicy } from '../../lib/outbound/outbound-request.ts';
import { changedFields, recordAudit } from '../audit/index.ts';
import { DELIVERY_MAX_ATTEMPTS, deliverNotificationJob } from './jobs/deliver-notification.job.ts';
import {
  deleteRules,
  type EventRow,
  findDeliveries as findDeliveryRows,
  findDueDailyRules,
  findDueRunDigests,
  getEvents,
  getRule,
  insertDeliveries,
  insertDigestItems,
  insertRule,
  listEnabledRules,
  listRules,
  type NewDelivery,
  type RuleRow,
  setLastDigestOn,
  takeDigestItems,
  updateRule as updateRuleRow,
} from './notifications.queries.ts';
import { sourceAlertTitle } from './source-alerts.templates.ts';

// ─── Rules ──────────────────────────────────────────────────────────────────────────────────

export function toRule(row: RuleRow): NotificationRule {
  return {
    id: row.id,
    name: row.name,
    enabled: row.enabled,
    eventTypes: row.event_types,
    minSeverity: row.min_severity,
    itemFilter: { label: row.item_label, contractNumber: row.item_contract },
    method: row.method,
    recipients: row.recipients,
    config: Object.fromEntries(
      Object.entries(row.config).map(([key, value]) => [
        key,
        SECRET_CONFIG_KEYS.includes(key) ? maskSecret(value) : value,
      ]),
    ),
    mode: row.mode,
    digestHour: row.digest_hour,
    lastDigestOn: row.last_digest_on,
    subject: row.subject,
    sourceType: row.source_type,
    failureThreshold: row.failure_threshold,
    staleHours: row.stale_hours,
    notifyRecovery: row.notify_recovery,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

const toInput = (row: RuleRow): NotificationRuleInput => ({
  name: row.name,
  enabled: row.enabled,
  eventTypes: row.event_types,
  minSeverity: row.min_severity,
  itemFilter: { label: row.item_label, contractNumber: row.item_contract },
  method: row.method,
  recipients: row.recipients,
  config: row.config,
  mode: row.mode,
  digestHour: row.digest_hour,
  subject: row.subject,
  sourceType: row.source_type,
  failureThreshold: row.failure_threshold,
  staleHours: row.stale_hours,
  notifyRecovery: row.notify_recovery,
});

/** Validates a whole rule; the field errors carry the same Russian messages as the form. */
function validateRule(input: unknown): NotificationRuleInput {
  const parsed = createNotificationRuleBodySchema.safeParse(input);
  if (!parsed.success) {
    throw new AppError('VALIDATION_FAILED', {
      fieldErrors: parsed.error.issues.map((issue) => ({
        field: issue.path.map(String).join('.'),
        message: issue.message,
      })),
    });
  }
  return parsed.data;
}

/** How long the save-time DNS look-up of a webhook host may take. */
const SAVE_CHECK_TIMEOUT_MS = 5000;

/**
 * Refuses a webhook whose address is, or resolves to, a loopback, private, link-local, metadata or
 * other internal address (unless the operator allowed the range). A host that does not resolve now
 * is accepted: the check runs again, pinned, before every send.
 */
async function assertWebhookAllowed(rule: NotificationRuleInput, policy: OutboundPolicy): Promise<void> {
  if (rule.method !== 'webhook') {
    return;
  }
  try {
    await checkOutboundUrl(rule.config.url ?? '', policy, { timeoutMs: SAVE_CHECK_TIMEOUT_MS });
  } catch (error) {
    if (error instanceof OutboundError && error.permanent) {
      throw new AppError('URL_NOT_ALLOWED', {
        fieldErrors: [{ field: 'config.url', message: error.message }],
      });
    }
  }
}

async function requireRule(
  db: Queryable,
  auth: AuthContext,
  id: string,
  forUpdate = false,
): Promise<RuleRow> {
  const rule = await getRule(db, auth.organisationId, id, { forUpdate });
  if (!rule) {
    throw new AppError('NOTIFICATION_RULE_NOT_FOUND');
  }
  return rule;
}

export async function findRules(options: {
  db: Queryable;
  auth: AuthContext;
}): Promise<NotificationRulesResponse> {
  const rows = await listRules(options.db, options.auth.organisationId);
  return { items: rows.map(toRule), total: rows.length };
}

export async function createRule(options: {
  db: pg.Pool;
  auth: AuthContext;
  rule: NotificationRuleInput;
  outbound: OutboundPolicy;
}): Promise<NotificationRule> {
  const { auth } = options;
  await assertWebhookAllowed(options.rule, options.outbound);
  return withTransaction(options.db, async (tx) => {
    const id = await insertRule(tx, auth.organisationId, auth.userId, options.rule);
    await recordAudit(tx, {
      organisationId: auth.organisationId,
      userId: auth.userId,
      action: 'notification_rule.create',
      entity: 'notification_rule',
      entityId: id,
      details: { name: options.rule.name, method: options.rule.method },
    });
    return toRule(await requireRule(tx, auth, id));
  });
}

/**
 * Merges the changed fields into the stored rule and validates the result. A secret left empty
 * (or sent back masked) keeps the stored one, as long as the method stays the same.
 */
export async function updateRule(options: {
  db: pg.Pool;
  auth: AuthContext;
  patch: UpdateNotificationRuleBody;
  outbound: OutboundPolicy;
}): Promise<NotificationRule> {
  const { auth } = options;
  const { id, ...patch } = options.patch;
  return withTransaction(options.db, async (tx) => {
    const current = await requireRule(tx, auth, id, true);
    const merged = { ...toInput(current), ...patch };
    const config = { ...(patch.config ?? current.config) };
    if (merged.method === current.method) {
      for (const key of SECRET_CONFIG_KEYS) {
        const sent = config[key]?.trim() ?? '';
        if ((sent === '' || sent.startsWith('••••')) && current.config[key]) {
          config[key] = current.config[key];
        }
      }
    }
    const rule = validateRule({ ...merged, config });
    // An unchanged address is checked at send time anyway; re-checking it here would keep an admin
    // from switching off or renaming a rule whose address was refused later (or saved before the check).
    const sameAddress = current.method === 'webhook' && rule.config.url === current.config.url;
    if (!sameAddress) {
      await assertWebhookAllowed(rule, options.outbound);
    }
    await updateRuleRow(tx, auth.organisationId, id, auth.userId, rule);
    await recordAudit(tx, {
      organisationId: auth.organisationId,
      userId: auth.userId,
      action: 'notification_rule.update',
      entity: 'notification_rule',
      entityId: id,
      details: {
        name: rule.name,
        changes: changedFields(
          { ...toInput(current), ...current.config },
          { ...rule, ...rule.config, config: undefined },
          { secret: SECRET_CONFIG_KEYS },
        ),
      },
    });
    return toRule(await requireRule(tx, auth, id));
  });
}

export async function deleteRulesByIds(options: {
  db: pg.Pool;
  auth: AuthContext;
  ids: string[];
}): Promise<{ deleted: number }> {
  const { auth } = options;
  return withTransaction(options.db, async (tx) => {
    const deleted = await deleteRules(tx, auth.organisationId, options.ids);
    if (deleted.length === 0) {
      throw new AppError('NOTIFICATION_RULE_NOT_FOUND');
    }
    for (const id of deleted) {
      await recordAudit(tx, {
        organisationId: auth.organisationId,
        userId: auth.userId,
        action: 'notification_rule.delete',
        entity: 'notification_rule',
        entityId: id,
      });
    }
    return { deleted: deleted.length };
  });
}

// ─── Deliveries ─────────────────────────────────────────────────────────────────────────────

/** Who or where a rule delivers to, one entry per delivery; never a secret. */
export function targetsOf(rule: RuleRow): string[] {
  if (rule.method === 'email') {
    return rule.recipients;
  }
  if (rule.method === 'webhook') {
    try {
      const url = new URL(rule.config.url ?? '');
      // The query string may carry a token of the receiver: the log shows the address without it.
      return [`${url.origin}${url.pathname}`];
    } catch {
      return [rule.config.url ?? ''];
    }
  }
  return [`Telegram ${rule.config.chatId ?? ''}`];
}

export async function enqueueDeliveries(db: Queryable, queue: JobQueue, ids: string[]): Promise<void> {
  for (let start = 0; start < ids.length; start += 500) {
    const chunk = ids.slice(start, start + 500);
    await queue.sendMany(
      deliverNotificationJob,
      chunk.map((deliveryId) => ({ deliveryId })),
      { db },
    );
  }
}

export function deliveriesFor(
  rule: RuleRow,
  kind: NewDelivery['kind'],
  eventIds: string[],
  keyOf: (recipient: string) => string,
): NewDelivery[] {
  return targetsOf(rule).map((recipient) => ({
    organisationId: rule.organisation_id,
    ruleId: rule.id,
    ruleName: rule.name,
    method: rule.method,
    recipient,
    kind,
    eventIds,
    dedupeKey: keyOf(recipient),
    maxAttempts: DELIVERY_MAX_ATTEMPTS,
  }));
}

const contains = (value: string | null, filter: string | null) =>
  filter === null || (value ?? '').toLocaleLowerCase('ru').includes(filter.toLocaleLowerCase('ru'));

export function ruleMatches(rule: RuleRow, event: EventRow): boolean {
  return (
    rule.subject === 'events' &&
    (rule.event_types.length === 0 || rule.event_types.includes(event.event_type)) &&
    SEVERITIES[event.severity].rank >= SEVERITIES[rule.min_severity].rank &&
    contains(event.label, rule.item_label) &&
    contains(event.contract_number, rule.item_contract)
  );
}

/**
 * Matches new events to the organisation's enabled rules. Call it inside the transaction that
 * creates the events: instant rules get their deliveries and jobs, digest rules remember the events
 * for the next digest — all of it exists only if the events are committed. Calling it twice for the
 * same events changes nothing.
 */
export async function notifyEvents(options: {
  db: Queryable;
  queue: JobQueue;
  organisationId: string;
  eventIds: string[];
}): Promise<void> {
  const { db, queue, organisationId } = options;
  if (options.eventIds.length === 0) {
    return;
  }
  const rules = await listEnabledRules(db, organisationId);
  if (rules.length === 0) {
    return;
  }
  const events = await getEvents(db, organisationId, options.eventIds);
  const deliveries: NewDelivery[] = [];
  const digestItems: { ruleId: string; eventId: string; runId: string | null }[] = [];
  for (const event of events) {
    for (const rule of rules) {
      if (!ruleMatches(rule, event)) {
        continue;
      }
      // An event of no run (a pledge-term lapse) has no run digest to wait for: it goes at once.
      if (rule.mode === 'instant' || (rule.mode === 'run' && event.run_id === null)) {
        deliveries.push(
          ...deliveriesFor(
            rule,
            'event',
            [event.id],
            (recipient) => `event:${rule.id}:${event.id}:${recipient}`,
          ),
        );
      } else {
        digestItems.push({ ruleId: rule.id, eventId: event.id, runId: event.run_id });
      }
    }
  }
  await insertDigestItems(db, digestItems);
  const ids = await insertDeliveries(db, deliveries);
  await enqueueDeliveries(db, queue, ids);
}

/** «Отправить тест»: one test delivery per recipient of the rule, through the real channel. */
export async function sendTestNotification(options: {
  db: pg.Pool;
  queue: JobQueue;
  auth: AuthContext;
  ruleId: string;
}): Promise<string[]> {
  return withTransaction(options.db, async (tx) => {
    const rule = await requireRule(tx, options.auth, options.ruleId);
    const ids = await insertDeliveries(
      tx,
      deliveriesFor(rule, 'test', [], () => `test:${randomUUID()}`),
    );
    await enqueueDeliveries(tx, options.queue, ids);
    return ids;
  });
}

/**
 * The digests that are due: per-run digests of finished check runs, and daily digests whose
 * Moscow hour has come. Each digest is taken from the waiting events in its own transaction.
 */
export async function sendDueDigests(options: { db: pg.Pool; queue: JobQueue; now?: Date }): Promise<number> {
  const { db, queue } = options;
  let created = 0;
  for (const due of await findDueRunDigests(db)) {
    created += await withTransaction(db, async (tx) => {
      const rule = await getRule(tx, due.organisation_id, due.rule_id, { forUpdate: true });
      if (!rule) {
        return 0;
      }
      const eventIds = await takeDigestItems(tx, rule.id, due.run_id);
      return createDigest(
        tx,
        queue,
        rule,
        eventIds,
        (recipient) => `run:${rule.id}:${due.run_id}:${recipient}`,
      );
    });
  }
  const clock = moscowClock(options.now ?? new Date());
  for (const due of await findDueDailyRules(db, clock)) {
    created += await withTransaction(db, async (tx) => {
      const rule = await getRule(tx, due.organisation_id, due.id, { forUpdate: true });
      const alreadySent = (rule?.last_digest_on ?? '') >= clock.date;
      if (rule?.mode !== 'daily' || alreadySent) {
        return 0;
      }
      const eventIds = await takeDigestItems(tx, rule.id);
      await setLastDigestOn(tx, rule.id, clock.date);
      return createDigest(
        tx,
        queue,
        rule,
        eventIds,
        (recipient) => `daily:${rule.id}:${clock.date}:${recipient}`,
      );
    });
  }
  return created;
}

async function createDigest(
  tx: Queryable,
  queue: JobQueue,
  rule: RuleRow,
  eventIds: string[],
  keyOf: (recipient: string) => string,
): Promise<number> {
  if (eventIds.length === 0) {
    return 0;
  }
  const ids = await insertDeliveries(tx, deliveriesFor(rule, 'digest', eventIds, keyOf));
  await enqueueDeliveries(tx, queue, ids);
  return ids.length;
}

export async function findDeliveries(options: {
  db: Queryable;
  auth: AuthContext;
  page: number;
  pageSize: number;
  status?: DeliveryStatus;
  ruleId?: string;
}): Promise<DeliveriesResponse> {
  const { items, total } = await findDeliveryRows(options.db, {
    organisationId: options.auth.organisationId,
    status: options.status,
    ruleId: options.ruleId,
    limit: options.pageSize,
    offset: (options.page - 1) * options.pageSize,
  });
  return {
    total,
    items: items.map((row) => ({
      id: row.id,
      ruleId: row.rule_id,
      ruleName: row.rule_name,
      method: row.method,
      recipient: row.recipient,
      kind: row.kind,
      eventCount: row.event_count,
      alert: row.payload ? sourceAlertTitle(row.payload) : null,
      event:
        row.event_id && row.event_type
          ? {
              id: row.event_id,
              type: row.event_type,
              typeLabel: EVENT_TYPES[row.event_type]?.label ?? row.event_type,
              identifier: row.identifier ?? '',
              label: row.label,
            }
          : null,
      status: row.status,
      attempts: row.attempts,
      maxAttempts: row.max_attempts,
      lastError: row.last_error,
      createdAt: row.created_at.toISOString(),
      lastAttemptAt: row.last_attempt_at?.toISOString() ?? null,
      sentAt: row.sent_at?.toISOString() ?? null,
    })),
  };
}
