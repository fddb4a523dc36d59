// Over 500 lines by design: the schema catalogue of the notifications API (rules, source alerts, deliveries, templates).
import { z } from 'zod';
import {
  EVENT_TYPE_CODES,
  eventTypeSchema,
  SEVERITY_CODES,
  severitySchema,
  sourceTypeSchema,
} from './checks.ts';
import { isoDateTime, PAGE_SIZE_MAX, requestExamples, requiredText } from './common.ts';
import { VALIDATION_MESSAGES as M } from './messages.ts';

/**
 * Notification rules (who learns about which events, how and when) and the log of every
 * delivery. E-mail is built in; `methods-additional` lists the other methods and their fields.
 */

// ─── Methods and modes ──────────────────────────────────────────────────────────────────────

export const NOTIFICATION_METHODS = ['email', 'webhook', 'telegram'] as const;
export const notificationMethodSchema = z
  .enum(NOTIFICATION_METHODS, { error: 'Выберите способ доставки' })
  .describe('email — письмо; webhook — JSON POST с подписью HMAC; telegram — сообщение бота');
export type NotificationMethod = z.infer<typeof notificationMethodSchema>;
export const NOTIFICATION_METHOD_LABELS: Readonly<Record<NotificationMethod, string>> = {
  email: 'Электронная почта',
  webhook: 'Вебхук (HTTP POST)',
  telegram: 'Telegram-бот',
};

export const NOTIFICATION_MODES = ['instant', 'daily', 'run'] as const;
export const notificationModeSchema = z
  .enum(NOTIFICATION_MODES, { error: 'Выберите, когда отправлять' })
  .describe(
    'instant — по каждому событию; daily — сводка раз в день в digestHour (МСК); run — одна сводка по итогам каждой проверки',
  );
export type NotificationMode = z.infer<typeof notificationModeSchema>;
export const NOTIFICATION_MODE_LABELS: Readonly<Record<NotificationMode, string>> = {
  instant: 'Сразу по каждому событию',
  daily: 'Ежедневная сводка',
  run: 'Сводка по итогам каждой проверки',
};

/**
 * What a rule watches: monitoring events (filtered by type, severity, item), or the health of the
 * sources — failures in a row, or data not refreshed for too long (issue 14).
 */
export const NOTIFICATION_SUBJECTS = ['events', 'source_failure', 'source_stale'] as const;
export const notificationSubjectSchema = z
  .enum(NOTIFICATION_SUBJECTS, { error: 'Выберите, о чём уведомлять' })
  .describe(
    'events — события мониторинга; source_failure — источник не ответил failureThreshold раз подряд; source_stale — данные источника не обновлялись staleHours часов',
  );
export type NotificationSubject = z.infer<typeof notificationSubjectSchema>;
export const NOTIFICATION_SUBJECT_LABELS: Readonly<Record<NotificationSubject, string>> = {
  events: 'События мониторинга',
  source_failure: 'Сбои источника данных',
  source_stale: 'Устаревшие данные источника',
};
export const FAILURE_THRESHOLD_MAX = 100;
export const STALE_HOURS_MAX = 8760;

export const MAX_RECIPIENTS = 20;
export const WEBHOOK_SECRET_MIN_LENGTH = 16;
/** Telegram bot tokens look like `123456789:AAH…` (bot id, colon, 30+ URL-safe characters). */
export const TELEGRAM_BOT_TOKEN_PATTERN = /^\d{5,12}:[A-Za-z0-9_-]{30,60}$/;
/** A numeric chat id (negative for groups and channels) or a public channel's @username. */
export const TELEGRAM_CHAT_ID_PATTERN = /^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{4,31})$/;

export const NOTIFICATION_MESSAGES = {
  recipientsRequired: 'Укажите хотя бы один адрес e-mail',
  recipientsMax: `Не больше ${MAX_RECIPIENTS} адресов`,
  recipientsDuplicate: 'Этот адрес уже указан',
  url: 'Введите адрес, начинающийся с https:// или http://',
  urlCredentials: 'Адрес не должен содержать логин и пароль',
  secretLength: `Секрет — не короче ${WEBHOOK_SECRET_MIN_LENGTH} символов`,
  botToken: 'Неверный токен бота: ожидается вид 123456789:AAH…, как выдаёт @BotFather',
  chatId: 'Неверный идентификатор чата: число (например, -1001234567890) или @имя_канала',
  digestHour: 'Час — целое число от 0 до 23',
  failureThreshold: `Число ошибок подряд — целое от 1 до ${FAILURE_THRESHOLD_MAX}`,
  staleHours: `Срок — целое число часов от 1 до ${STALE_HOURS_MAX}`,
  sourceAlertMode: 'Оповещения об источниках отправляются сразу: выберите «Сразу по каждому событию»',
} as const;

/** A field a method needs, as the form shows it. */
export const methodFieldSchema = z.object({
  name: z.string().describe('Ключ в `config` правила'),
  label: z.string(),
  description: z.string().describe('Подсказка под полем'),
  type: z.enum(['url', 'text', 'secret']),
  required: z.boolean(),
  /** Secret fields are never returned in full: the rule shows them masked, and an empty value on update keeps them. */
  secret: z.boolean(),
  placeholder: z.string().nullable(),
});
export type MethodField = z.infer<typeof methodFieldSchema>;

export const additionalMethodSchema = z.object({
  method: notificationMethodSchema,
  label: z.string(),
  description: z.string(),
  fields: z.array(methodFieldSchema),
});
export type AdditionalMethod = z.infer<typeof additionalMethodSchema>;
export const additionalMethodsResponseSchema = z.object({ items: z.array(additionalMethodSchema) });
export type AdditionalMethodsResponse = z.infer<typeof additionalMethodsResponseSchema>;

/** The methods beyond e-mail, served by `GET /monitoring/notifications/methods-additional`. */
export const ADDITIONAL_METHODS: readonly AdditionalMethod[] = [
  {
    method: 'webhook',
    label: NOTIFICATION_METHOD_LABELS.webhook,
    description:
      'JSON POST на ваш адрес. Тело подписано HMAC-SHA256 от «метка_времени.тело» в заголовке X-Pledgewatch-Signature (t=…,v1=…); заголовок Idempotency-Key одинаков при повторных попытках.',
    fields: [
      {
        name: 'url',
        label: 'Адрес (URL)',
        description:
          'Куда отправлять запросы: публичный адрес https://…; адреса внутренней сети (127.0.0.1, 10.x, 192.168.x и т. п.) запрещены, кроме разрешённых администратором сервера',
        type: 'url',
        required: true,
        secret: false,
        placeholder: 'https://example.ru/hooks/pledgewatch',
      },
      {
        name: 'secret',
        label: 'Секрет подписи',
        description: `Ключ HMAC-SHA256, не короче ${WEBHOOK_SECRET_MIN_LENGTH} символов; храните его на принимающей стороне`,
        type: 'secret',
        required: true,
        secret: true,
        placeholder: null,
      },
    ],
  },
  {
    method: 'telegram',
    label: NOTIFICATION_METHOD_LABELS.telegram,
    description:
      'Сообщение от вашего бота в чат, группу или канал. Создайте бота у @BotFather и добавьте его в чат.',
    fields: [
      {
        name: 'botToken',
        label: 'Токен бота',
        description: 'Токен от @BotFather, вида 123456789:AAH…',
        type: 'secret',
        required: true,
        secret: true,
        placeholder: null,
      },
      {
        name: 'chatId',
        label: 'Идентификатор чата',
        description: 'Число (для групп и каналов — отрицательное) или @имя_публичного_канала',
        type: 'text',
        required: true,
        secret: false,
        placeholder: '-1001234567890',
      },
    ],
  },
];

/** Keys of `config` per method; secret keys are masked in answers. */
export const METHOD_CONFIG_KEYS: Readonly<Record<NotificationMethod, readonly string[]>> = {
  email: [],
  webhook: ['url', 'secret'],
  telegram: ['botToken', 'chatId'],
};
export const SECRET_CONFIG_KEYS: readonly string[] = ['secret', 'botToken'];

/** `••••••••ab12`: enough to recognise a secret, never enough to use it. */
export function maskSecret(value: string): string {
  return value.length <= 8 ? '••••••••' : `••••••••${value.slice(-4)}`;
}

// ─── Rules ──────────────────────────────────────────────────────────────────────────────────

const filterText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: M.maxLength(max) })
    .nullish()
    .transform((value) => value || null);

export const itemFilterSchema = z
  .object({
    label: filterText(200).describe('Метка объекта содержит (без учёта регистра); пусто — любая'),
    contractNumber: filterText(100).describe('Номер договора содержит; пусто — любой'),
  })
  .describe('Для каких объектов; оба поля пусты — для всех');

const ruleFieldsShape = {
  name: requiredText(200).describe('Название правила'),
  enabled: z.boolean(),
  eventTypes: z
    .array(eventTypeSchema)
    .max(EVENT_TYPE_CODES.length)
    .describe('Типы событий; пустой список — все типы'),
  minSeverity: severitySchema.describe('Минимальная важность события'),
  itemFilter: itemFilterSchema,
  method: notificationMethodSchema,
  recipients: z.array(z.string()).describe('Адреса e-mail (для method = email)'),
  config: z
    .record(z.string(), z.string())
    .describe(
      'Поля дополнительного способа (см. methods-additional): webhook {url, secret}, telegram {botToken, chatId}',
    ),
  mode: notificationModeSchema,
  digestHour: z
    .number({ error: NOTIFICATION_MESSAGES.digestHour })
    .int({ error: NOTIFICATION_MESSAGES.digestHour })
    .min(0, { error: NOTIFICATION_MESSAGES.digestHour })
    .max(23, { error: NOTIFICATION_MESSAGES.digestHour })
    .describe('Час отправки ежедневной сводки по Москве (0–23)'),
  subject: notificationSubjectSchema,
  sourceType: sourceTypeSchema
    .nullable()
    .describe('Для оповещений об источниках: какой источник; null — любой'),
  failureThreshold: z
    .number({ error: NOTIFICATION_MESSAGES.failureThreshold })
    .int({ error: NOTIFICATION_MESSAGES.failureThreshold })
    .min(1, { error: NOTIFICATION_MESSAGES.failureThreshold })
    .max(FAILURE_THRESHOLD_MAX, { error: NOTIFICATION_MESSAGES.failureThreshold })
    .describe('source_failure: после скольких ошибок подряд оповещать (1–100)'),
  staleHours: z
    .number({ error: NOTIFICATION_MESSAGES.staleHours })
    .int({ error: NOTIFICATION_MESSAGES.staleHours })
    .min(1, { error: NOTIFICATION_MESSAGES.staleHours })
    .max(STALE_HOURS_MAX, { error: NOTIFICATION_MESSAGES.staleHours })
    .describe('source_stale: через сколько часов без обновления данных оповещать'),
  notifyRecovery: z.boolean().describe('Сообщить, когда источник снова в порядке'),
};

const emailCheck = z.email();

const HTTP_URL_PATTERN = /^https?:\/\/[^\s/?#]+(?:[/?#]\S*)?$/i;

function isHttpUrl(value: string): { ok: boolean; credentials: boolean } {
  const ok = HTTP_URL_PATTERN.test(value);
  return { ok, credentials: ok && /^https?:\/\/[^/?#]*@/i.test(value) };
}

type RuleShape = {
  subject?: NotificationSubject;
  mode?: NotificationMode;
  method: NotificationMethod;
  recipients: string[];
  config: Record<string, string>;
};

/**
 * The method-specific rules with Russian messages on the exact field (`recipients.1`,
 * `config.url`…). `secretsOptional`: an edit form may leave a secret empty to keep the stored one.
 */
export function checkRuleMethod(
  value: RuleShape,
  ctx: z.RefinementCtx,
  options: { secretsOptional?: boolean } = {},
): void {
  const issue = (path: (string | number)[], message: string) =>
    ctx.addIssue({ code: 'custom', path, message });
  const config = (key: string) => (value.config[key] ?? '').trim();
  // A source alert is one message per episode: there is nothing to gather into a digest.
  if (value.subject && value.subject !== 'events' && value.mode && value.mode !== 'instant') {
    issue(['mode'], NOTIFICATION_MESSAGES.sourceAlertMode);
  }
  const secretMissing = (key: string) => !options.secretsOptional && config(key) === '';
  if (value.method === 'email') {
    const seen = new Set<string>();
    if (value.recipients.length === 0) {
      issue(['recipients'], NOTIFICATION_MESSAGES.recipientsRequired);
    }
    if (value.recipients.length > MAX_RECIPIENTS) {
      issue(['recipients'], NOTIFICATION_MESSAGES.recipientsMax);
    }
    value.recipients.forEach((raw, index) => {
      const address = raw.trim().toLowerCase();
      if (address === '') {
        issue(['recipients', index], M.required);
      } else if (address.length > 254 || !emailCheck.safeParse(address).success) {
        issue(['recipients', index], M.email);
      } else if (seen.has(address)) {
        issue(['recipients', index], NOTIFICATION_MESSAGES.recipientsDuplicate);
      }
      seen.add(address);
    });
  } else if (value.method === 'webhook') {
    const url = config('url');
    const checked = isHttpUrl(url);
    if (url === '') {
      issue(['config', 'url'], M.required);
    } else if (url.length > 2000) {
      issue(['config', 'url'], M.maxLength(2000));
    } else if (!checked.ok) {
      issue(['config', 'url'], NOTIFICATION_MESSAGES.url);
    } else if (checked.credentials) {
      issue(['config', 'url'], NOTIFICATION_MESSAGES.urlCredentials);
    }
    const secret = config('secret');
    if (secretMissing('secret')) {
      issue(['config', 'secret'], M.required);
    } else if (secret !== '' && secret.length < WEBHOOK_SECRET_MIN_LENGTH) {
      issue(['config', 'secret'], NOTIFICATION_MESSAGES.secretLength);
    } else if (secret.length > 200) {
      issue(['config', 'secret'], M.maxLength(200));
    }
  } else {
    const token = config('botToken');
    if (secretMissing('botToken')) {
      issue(['config', 'botToken'], M.required);
    } else if (token !== '' && !TELEGRAM_BOT_TOKEN_PATTERN.test(token)) {
      issue(['config', 'botToken'], NOTIFICATION_MESSAGES.botToken);
    }
    const chatId = config('chatId');
    if (chatId === '') {
      issue(['config', 'chatId'], M.required);
    } else if (!TELEGRAM_CHAT_ID_PATTERN.test(chatId)) {
      issue(['config', 'chatId'], NOTIFICATION_MESSAGES.chatId);
    }
  }
}

/** Keeps only what the method uses: trimmed, lower-cased, de-duplicated addresses; its config keys. */
export function normaliseRuleTarget<T extends RuleShape>(value: T): T {
  const keys = METHOD_CONFIG_KEYS[value.method];
  return {
    ...value,
    recipients:
      value.method === 'email'
        ? [...new Set(value.recipients.map((address) => address.trim().toLowerCase()))]
        : [],
    config: Object.fromEntries(keys.map((key) => [key, (value.config[key] ?? '').trim()])),
  };
}

/** The whole rule as the edit form and the server validate it. */
export const notificationRuleFormSchema = (options: { secretsOptional?: boolean } = {}) =>
  z.object(ruleFieldsShape).superRefine((value, ctx) => checkRuleMethod(value, ctx, options));
export type NotificationRuleForm = z.input<ReturnType<typeof notificationRuleFormSchema>>;

export const createNotificationRuleBodySchema = z
  .object({
    ...ruleFieldsShape,
    enabled: ruleFieldsShape.enabled.default(true),
    eventTypes: ruleFieldsShape.eventTypes.default([]),
    minSeverity: ruleFieldsShape.minSeverity.default('low'),
    itemFilter: itemFilterSchema.default({ label: null, contractNumber: null }),
    recipients: ruleFieldsShape.recipients.default([]),
    config: ruleFieldsShape.config.default({}),
    mode: ruleFieldsShape.mode.default('instant'),
    digestHour: ruleFieldsShape.digestHour.default(9),
    subject: ruleFieldsShape.subject.default('events'),
    sourceType: ruleFieldsShape.sourceType.default(null),
    failureThreshold: ruleFieldsShape.failureThreshold.default(3),
    staleHours: ruleFieldsShape.staleHours.default(24),
    notifyRecovery: ruleFieldsShape.notifyRecovery.default(true),
  })
  .superRefine((value, ctx) => checkRuleMethod(value, ctx))
  .transform(normaliseRuleTarget)
  .meta(
    requestExamples({
      name: 'АБС: важные события',
      method: 'webhook',
      config: {
        url: 'https://loans.bank.example/pledgewatch/events',
        secret: 'replace-with-a-long-random-secret',
      },
      minSeverity: 'high',
    }),
  );
export type CreateNotificationRuleBody = z.input<typeof createNotificationRuleBodySchema>;
export type NotificationRuleInput = z.output<typeof createNotificationRuleBodySchema>;

/**
 * PATCH: the rule id and any fields to change. The server merges them into the stored rule and
 * validates the result as a whole; an empty secret keeps the stored one.
 */
export const updateNotificationRuleBodySchema = z.object({
  id: z.uuid({ error: 'Неверный идентификатор правила' }).describe('Какое правило изменить'),
  name: ruleFieldsShape.name.optional(),
  enabled: ruleFieldsShape.enabled.optional(),
  eventTypes: ruleFieldsShape.eventTypes.optional(),
  minSeverity: ruleFieldsShape.minSeverity.optional(),
  itemFilter: itemFilterSchema.optional(),
  method: ruleFieldsShape.method.optional(),
  recipients: ruleFieldsShape.recipients.optional(),
  config: ruleFieldsShape.config.optional(),
  mode: ruleFieldsShape.mode.optional(),
  digestHour: ruleFieldsShape.digestHour.optional(),
  subject: ruleFieldsShape.subject.optional(),
  sourceType: ruleFieldsShape.sourceType.optional(),
  failureThreshold: ruleFieldsShape.failureThreshold.optional(),
  staleHours: ruleFieldsShape.staleHours.optional(),
  notifyRecovery: ruleFieldsShape.notifyRecovery.optional(),
});
export type UpdateNotificationRuleBody = z.input<typeof updateNotificationRuleBodySchema>;

export const deleteNotificationRulesBodySchema = z.object({
  ids: z
    .array(z.uuid({ error: 'Неверный идентификатор правила' }))
    .min(1, { error: 'Выберите хотя бы одно правило' })
    .max(500),
});
export type DeleteNotificationRulesBody = z.infer<typeof deleteNotificationRulesBodySchema>;
export const deleteNotificationRulesResponseSchema = z.object({ deleted: z.number().int() });

export const notificationRuleSchema = z.object({
  id: z.string(),
  name: z.string(),
  enabled: z.boolean(),
  eventTypes: z.array(eventTypeSchema),
  minSeverity: severitySchema,
  itemFilter: z.object({ label: z.string().nullable(), contractNumber: z.string().nullable() }),
  method: notificationMethodSchema,
  recipients: z.array(z.string()),
  config: z
    .record(z.string(), z.string())
    .describe('Поля способа; секреты (secret, botToken) только в виде ••••••••ab12'),
  mode: notificationModeSchema,
  digestHour: z.number().int(),
  lastDigestOn: z.string().nullable().describe('Дата (МСК) последней ежедневной сводки'),
  subject: notificationSubjectSchema,
  sourceType: sourceTypeSchema.nullable(),
  failureThreshold: z.number().int(),
  staleHours: z.number().int(),
  notifyRecovery: z.boolean(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type NotificationRule = z.infer<typeof notificationRuleSchema>;
export const notificationRulesResponseSchema = z.object({
  items: z.array(notificationRuleSchema),
  total: z.number().int(),
});
export type NotificationRulesResponse = z.infer<typeof notificationRulesResponseSchema>;

export const testNotificationResponseSchema = z.object({
  message: z.string(),
  deliveryIds: z.array(z.string()),
});
export type TestNotificationResponse = z.infer<typeof testNotificationResponseSchema>;

// ─── Deliveries ─────────────────────────────────────────────────────────────────────────────

export const DELIVERY_STATUSES = ['queued', 'sending', 'retrying', 'sent', 'failed'] as const;
export const deliveryStatusSchema = z
  .enum(DELIVERY_STATUSES, { error: 'Неизвестный статус доставки' })
  .describe(
    'queued — в очереди; sending — отправляется; retrying — ошибка, будет повтор; sent — доставлено; failed — все попытки исчерпаны',
  );
export type DeliveryStatus = z.infer<typeof deliveryStatusSchema>;
export const DELIVERY_STATUS_LABELS: Readonly<Record<DeliveryStatus, string>> = {
  queued: 'В очереди',
  sending: 'Отправляется',
  retrying: 'Повтор',
  sent: 'Доставлено',
  failed: 'Ошибка',
};

export const DELIVERY_KINDS = ['event', 'digest', 'test', 'source'] as const;
export const DELIVERY_KIND_LABELS: Readonly<Record<(typeof DELIVERY_KINDS)[number], string>> = {
  event: 'Событие',
  digest: 'Сводка',
  test: 'Тест',
  source: 'Источник',
};

export const deliverySchema = z.object({
  id: z.string().describe('Он же ключ идемпотентности (Idempotency-Key, Message-ID)'),
  ruleId: z.string().nullable().describe('null — правило удалено'),
  ruleName: z.string(),
  method: notificationMethodSchema,
  recipient: z.string().describe('Адрес e-mail, хост вебхука или чат Telegram'),
  kind: z.enum(DELIVERY_KINDS),
  eventCount: z.number().int(),
  event: z
    .object({
      id: z.string(),
      type: eventTypeSchema,
      typeLabel: z.string(),
      identifier: z.string(),
      label: z.string().nullable(),
    })
    .nullable()
    .describe('Первое (для события — единственное) событие доставки'),
  alert: z
    .string()
    .nullable()
    .describe('Для оповещения об источнике (kind = source): что случилось, одной строкой'),
  status: deliveryStatusSchema,
  attempts: z.number().int().describe('Сделано попыток'),
  maxAttempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: isoDateTime,
  lastAttemptAt: isoDateTime.nullable(),
  sentAt: isoDateTime.nullable(),
});
export type Delivery = z.infer<typeof deliverySchema>;

export const deliveriesQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(25),
  status: deliveryStatusSchema.optional(),
  ruleId: z.uuid({ error: 'Неверный идентификатор правила' }).optional(),
});
export type DeliveriesQuery = z.input<typeof deliveriesQuerySchema>;
export const deliveriesResponseSchema = z.object({
  items: z.array(deliverySchema),
  total: z.number().int(),
});
export type DeliveriesResponse = z.infer<typeof deliveriesResponseSchema>;

/** The body of a webhook call (one event, a digest or a test). */
export const webhookEventSchema = z.object({
  id: z.string(),
  type: eventTypeSchema,
  typeLabel: z.string(),
  severity: z.enum(SEVERITY_CODES),
  source: z.string(),
  sourceName: z.string(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  detectedAt: isoDateTime,
  url: z.string(),
  item: z.object({
    id: z.string(),
    kind: z.string(),
    identifier: z.string(),
    label: z.string().nullable(),
    contractNumber: z.string().nullable(),
  }),
});
export type WebhookEvent = z.infer<typeof webhookEventSchema>;

// ─── Source alerts ──────────────────────────────────────────────────────────────────────────

/** failure / recovered: failures in a row and the first good answer after; stale / refreshed: data age. */
export const SOURCE_ALERT_KINDS = ['failure', 'recovered', 'stale', 'refreshed'] as const;
export type SourceAlertKind = (typeof SOURCE_ALERT_KINDS)[number];

/** What one source alert says; the `alert` of a webhook call whose kind is `source`. */
export const sourceAlertSchema = z.object({
  kind: z.enum(SOURCE_ALERT_KINDS),
  sourceType: sourceTypeSchema,
  sourceName: z.string(),
  consecutiveFailures: z.number().int(),
  failureThreshold: z.number().int().nullable(),
  lastError: z.string().nullable().describe('Последняя ошибка источника, на русском'),
  lastRefreshAt: isoDateTime.nullable().describe('Когда данные источника обновлялись последний раз'),
  staleHours: z.number().int().nullable(),
  detectedAt: isoDateTime,
  url: z.string().describe('Страница источников'),
});
export type SourceAlert = z.infer<typeof sourceAlertSchema>;
