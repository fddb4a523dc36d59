import type { WebhookEvent } from '@pledgewatch/contract';
import type { AppConfig } from '../../config/env.ts';
import type { Queryable } from '../../db/pool.ts';
import { retryOnConnectionLoss } from '../../db/pool.ts';
import type { Mailer, MailMessage } from '../../lib/mailer.ts';
import { recordNotificationDelivery } from '../../lib/metrics.ts';
import { formatMoscow, formatMoscowDate } from '../../lib/moscow-time.ts';
import { outboundPolicy } from '../../lib/outbound/outbound-request.ts';
import { insertOutboxMail, markOutboxMail } from '../mail/index.ts';
import { ChannelFailure, sendTelegram, sendWebhook } from './notifications.channels.ts';
import {
  claimDelivery,
  type DeliveryRow,
  getDelivery,
  getEvents,
  getRule,
  markDeliveryFailedTry,
  markDeliverySent,
  type RuleRow,
} from './notifications.queries.ts';
import {
  type EventView,
  type MessageKind,
  type NotificationContent,
  renderEmail,
  renderTelegram,
  sampleEvent,
  toEventView,
  toWebhookEvent,
} from './notifications.templates.ts';
import {
  renderSourceAlertEmail,
  renderSourceAlertTelegram,
  sampleSourceAlert,
} from './source-alerts.templates.ts';

/**
 * Seconds a worker holds a delivery while sending. Longer than any one send (HTTP timeout, SMTP
 * socket timeout), shorter than the job's expiry, so the retry after a dead worker can take it over.
 */
export const DELIVERY_LEASE_SECONDS = 90;

type DeliveryConfig = Pick<
  AppConfig,
  'appUrl' | 'telegramApiUrl' | 'notifyHttpTimeoutMs' | 'outboundAllowedRanges'
>;

/** A failure that no retry can fix: the delivery ends `failed` at once. */
class PermanentFailure extends Error {}

/**
 * One try of one delivery. At most one worker holds a delivery at a time; one that was sent is
 * never sent again. A worker that dies between sending and recording leaves the lease to expire,
 * and the retry sends again with the same idempotency key (the delivery id): at-least-once.
 */
export async function performDelivery(options: {
  db: Queryable;
  config: DeliveryConfig;
  mailer: Mailer;
  deliveryId: string;
  /** The job's last try: a failure now ends the delivery as `failed`. */
  lastTry: boolean;
  now?: Date;
}): Promise<void> {
  const { db, deliveryId } = options;
  const delivery = await claimDelivery(db, deliveryId, DELIVERY_LEASE_SECONDS);
  if (!delivery) {
    const current = await getDelivery(db, deliveryId);
    if (!current || current.status === 'sent' || current.status === 'failed') {
      return;
    }
    // Another worker holds it right now; come back later (it is sent by then, or its lease ran out).
    throw new Error('Доставка уже выполняется другим обработчиком');
  }
  try {
    await send({ ...options, delivery });
  } catch (error) {
    recordNotificationDelivery(delivery.method, 'failed');
    // A refused address or a malformed URL fails the same way every time: no retries.
    const permanent =
      error instanceof PermanentFailure || (error instanceof ChannelFailure && error.permanent);
    await markDeliveryFailedTry(db, delivery.id, {
      final: permanent || options.lastTry,
      error: (error as Error).message || 'Неизвестная ошибка',
    });
    if (!permanent) {
      throw error;
    }
    return;
  }
  recordNotificationDelivery(delivery.method, 'sent');
  // Sent is irreversible: a lost connection while recording it must not make the retry send again
  // (the receiver would get it twice), so wait for the database within the delivery's lease.
  await retryOnConnectionLoss(() => markDeliverySent(db, delivery.id), {
    timeoutMs: (DELIVERY_LEASE_SECONDS - 15) * 1000,
  });
}

async function send(options: {
  db: Queryable;
  config: DeliveryConfig;
  mailer: Mailer;
  delivery: DeliveryRow;
  now?: Date;
}): Promise<void> {
  const { db, config, delivery } = options;
  const rule = delivery.rule_id ? await getRule(db, delivery.organisation_id, delivery.rule_id) : undefined;
  if (!rule) {
    throw new PermanentFailure('Правило удалено — уведомление не отправлено');
  }
  if (rule.method !== delivery.method) {
    throw new PermanentFailure('Способ доставки правила изменён — уведомление не отправлено');
  }
  if (!rule.enabled && delivery.kind !== 'test') {
    throw new PermanentFailure('Правило отключено — уведомление не отправлено');
  }
  // A test of a source rule shows a made-up alert, as a test of an events rule shows a sample event.
  const sourceTest = delivery.kind === 'test' && rule.subject !== 'events';
  if (delivery.kind === 'source' || sourceTest) {
    const alert = sourceTest
      ? sampleSourceAlert(rule, options.now ?? new Date(), config.appUrl)
      : delivery.payload;
    if (!alert) {
      throw new PermanentFailure('Оповещение без содержимого — не отправлено');
    }
    // A source alert carries its content in the delivery itself: no events.
    await sendThroughChannel(
      { ...options, rule },
      {
        email: () => renderSourceAlertEmail(delivery.recipient, rule.name, alert, sourceTest),
        webhook: () => ({ period: null, events: [], alert }),
        telegram: () => renderSourceAlertTelegram(rule.name, alert, sourceTest),
      },
    );
    return;
  }
  const content = await buildContent(db, config, delivery, rule, options.now ?? new Date());
  await sendThroughChannel(
    { ...options, rule },
    {
      email: () => renderEmail(delivery.recipient, content),
      webhook: () => ({ period: content.period ?? null, events: content.events.map((view) => view.webhook) }),
      telegram: () => renderTelegram(content),
    },
  );
}

/** One message through the rule's method; each builder runs only for its own method. */
async function sendThroughChannel(
  options: {
    db: Queryable;
    config: DeliveryConfig;
    mailer: Mailer;
    delivery: DeliveryRow;
    rule: RuleRow;
    now?: Date;
  },
  message: {
    email: () => MailMessage;
    /** What the webhook body carries besides id, kind, rule and createdAt. */
    webhook: () => { period: string | null } & Record<string, unknown>;
    telegram: () => string;
  },
): Promise<void> {
  const { config, delivery, rule } = options;
  if (delivery.method === 'email') {
    await sendEmail(options.db, options.mailer, delivery, message.email());
  } else if (delivery.method === 'webhook') {
    const { period, ...rest } = message.webhook();
    const body = JSON.stringify({
      id: delivery.id,
      kind: delivery.kind,
      rule: { id: rule.id, name: rule.name },
      period,
      createdAt: delivery.created_at.toISOString(),
      ...rest,
    });
    await sendWebhook({
      url: rule.config.url ?? '',
      secret: rule.config.secret ?? '',
      body,
      idempotencyKey: delivery.id,
      timeoutMs: config.notifyHttpTimeoutMs,
      // Checked again at send time: DNS may have changed since the rule was saved.
      policy: outboundPolicy(config),
      now: options.now,
    });
  } else {
    await sendTelegram({
      apiUrl: config.telegramApiUrl,
      botToken: rule.config.botToken ?? '',
      chatId: rule.config.chatId ?? '',
      text: message.telegram(),
      timeoutMs: config.notifyHttpTimeoutMs,
    });
  }
}

interface Content extends NotificationContent {
  events: (EventView & { webhook: WebhookEvent })[];
}

async function buildContent(
  db: Queryable,
  config: DeliveryConfig,
  delivery: DeliveryRow,
  rule: RuleRow,
  now: Date,
): Promise<Content> {
  const rows =
    delivery.kind === 'test'
      ? [sampleEvent(delivery.organisation_id, now)]
      : await getEvents(db, delivery.organisation_id, delivery.event_ids);
  if (rows.length === 0) {
    throw new PermanentFailure('События удалены — уведомление не отправлено');
  }
  const events = rows.map((row) => ({
    ...toEventView(row, config.appUrl),
    webhook: toWebhookEvent(row, config.appUrl),
  }));
  let period: string | undefined;
  if (delivery.kind === 'digest') {
    period =
      rule.mode === 'daily'
        ? `за ${formatMoscowDate(delivery.created_at)}`
        : `по итогам проверки ${formatMoscow(rows[rows.length - 1]!.detected_at)}`;
  }
  return { kind: delivery.kind as MessageKind, ruleName: rule.name, period, events };
}

async function sendEmail(
  db: Queryable,
  mailer: Mailer,
  delivery: DeliveryRow,
  message: MailMessage,
): Promise<void> {
  if (!mailer.smtpEnabled) {
    // Without SMTP nothing leaves the machine: the mail is kept in the outbox, as every other mail.
    const id = await insertOutboxMail(db, {
      organisationId: delivery.organisation_id,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
    });
    await markOutboxMail(db, id, { status: 'stored' });
    return;
  }
  await mailer.send({
    ...message,
    messageId: `<${delivery.id}@notifications.pledgewatch>`,
    headers: { 'X-Pledgewatch-Delivery': delivery.id },
  });
}
