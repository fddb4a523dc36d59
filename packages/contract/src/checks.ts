// Over 500 lines by design: the schema catalogue of the checks API (sources, runs, events, one-time checks).
import type { DOCUMENT_TYPE_CODES } from '@pledgewatch/identifiers';
import { z } from 'zod';
import { isoDateTime, PAGE_SIZE_MAX, requestExamples } from './common.ts';
import { dateTimeSchema } from './dates.ts';
import {
  documentTypeCodeSchema,
  type ItemKind,
  itemKindSchema,
  vinDecodingSchema,
} from './monitoring-items.ts';

/**
 * The checks engine: data sources, regular check runs, the events they produce and one-time
 * checks with their printable document.
 */

// ─── Sources ─────────────────────────────────────────────────────────────────────────────────

export const SOURCE_TYPE_CODES = [
  'pledges',
  'wanted',
  'restrictions',
  'registration',
  'accidents',
  'bankruptcy',
  'enforcement',
  'passport',
] as const;
export const sourceTypeSchema = z
  .enum(SOURCE_TYPE_CODES, { error: 'Неизвестный источник' })
  .describe('Тип источника данных');
export type SourceType = z.infer<typeof sourceTypeSchema>;

export interface SourceTypeInfo {
  /** Russian name shown everywhere, including the PDF document. */
  name: string;
  /** What the source answers, one sentence for tooltips and the document. */
  description: string;
  /** Item kinds the source answers for. */
  itemKinds: readonly ItemKind[];
  /** For document sources: the document types it knows (others are not sent to it). */
  documentTypes?: readonly (typeof DOCUMENT_TYPE_CODES)[number][];
}

export const SOURCE_TYPES: Readonly<Record<SourceType, SourceTypeInfo>> = {
  pledges: {
    name: 'Реестр залогов',
    description: 'Уведомления о залоге движимого имущества',
    itemKinds: ['vin'],
  },
  wanted: { name: 'Розыск', description: 'Транспортные средства в розыске', itemKinds: ['vin'] },
  restrictions: {
    name: 'Ограничения',
    description: 'Запреты и ограничения на регистрационные действия',
    itemKinds: ['vin'],
  },
  registration: {
    name: 'Регистрационные действия',
    description: 'Смена владельца и другие регистрационные действия',
    itemKinds: ['vin'],
  },
  accidents: { name: 'ДТП', description: 'Дорожно-транспортные происшествия', itemKinds: ['vin'] },
  bankruptcy: {
    name: 'Банкротство',
    description: 'Дела о банкротстве физических лиц и организаций',
    itemKinds: ['document'],
    documentTypes: ['passport_rf', 'inn', 'ogrn', 'ogrnip'],
  },
  enforcement: {
    name: 'Исполнительные производства',
    description: 'Исполнительные производства ФССП',
    itemKinds: ['document'],
    documentTypes: ['passport_rf', 'inn', 'ogrn', 'ogrnip'],
  },
  passport: {
    name: 'Недействительные паспорта',
    description: 'Перечень недействительных паспортов РФ',
    itemKinds: ['document'],
    documentTypes: ['passport_rf'],
  },
};

/** `all` clears the cache of every remote source. */
export const cacheInvalidateBodySchema = z.object({
  type: z
    .union([sourceTypeSchema, z.literal('all')], { error: 'Укажите тип источника или all' })
    .describe('Тип источника или `all`'),
});
export type CacheInvalidateBody = z.infer<typeof cacheInvalidateBodySchema>;
export const cacheInvalidateResponseSchema = z.object({
  message: z.string(),
  removed: z.number().int().describe('Сколько сохранённых ответов удалено'),
});
export type CacheInvalidateResponse = z.infer<typeof cacheInvalidateResponseSchema>;

export const ADAPTER_KINDS = ['dataset', 'remote'] as const;
export const ADAPTER_KIND_LABELS: Record<(typeof ADAPTER_KINDS)[number], string> = {
  dataset: 'Набор данных',
  remote: 'Внешний сервис',
};

/**
 * The providers' names as a user knows them (SOURCE_<TYPE>_PROVIDER's values; the server's
 * config/source-providers.ts lists what each serves, its test that each has a name here).
 */
export const SOURCE_PROVIDER_LABELS: Readonly<Record<string, string>> = {
  'json-service': 'Сервис банка (JSON)',
  'parser-api': 'Parser API',
  'api-cloud': 'API-Cloud',
  fedresurs: 'Федресурс',
  avtocod: 'Автокод',
};

/** Who answers for a source: the provider's name, else the kind of source (a dataset). */
export function sourceProviderLabel(source: {
  adapter: (typeof ADAPTER_KINDS)[number];
  provider?: string | null;
}): string {
  return source.provider
    ? (SOURCE_PROVIDER_LABELS[source.provider] ?? source.provider)
    : ADAPTER_KIND_LABELS[source.adapter];
}

export const sourceImportStatusSchema = z
  .enum(['importing', 'active', 'superseded', 'failed'])
  .describe('importing — загружается; active — используется; superseded — заменена новой версией');

/** Where a running import stands: shown on the sources screen while a version loads. */
export const sourceImportProgressSchema = z.object({
  phase: z
    .enum(['queued', 'downloading', 'loading', 'indexing', 'switching'])
    .describe(
      'queued — в очереди; downloading — скачивается; loading — читается и загружается; indexing — строится индекс; switching — переключение версии',
    ),
  bytesRead: z.number().describe('Прочитано байт файла'),
  bytesTotal: z.number().nullable().describe('Размер файла, байт (если известен)'),
  rowsRead: z.number().describe('Прочитано строк'),
});
export type SourceImportProgress = z.infer<typeof sourceImportProgressSchema>;

export const SOURCE_IMPORT_PHASE_LABELS: Record<SourceImportProgress['phase'], string> = {
  queued: 'В очереди',
  downloading: 'Скачивание',
  loading: 'Загрузка строк',
  indexing: 'Построение индекса',
  switching: 'Переключение версии',
};

export const sourceImportSchema = z.object({
  id: z.string(),
  sourceType: sourceTypeSchema,
  version: z.number().int().describe('Номер версии набора данных, с 1'),
  fileName: z.string(),
  status: sourceImportStatusSchema,
  recordsTotal: z.number().int().describe('Принятых записей'),
  rowsRejected: z.number().int(),
  /** The first rejected rows (at most 100) with their row number and a Russian reason. */
  errors: z.array(z.object({ row: z.number().int(), message: z.string() })),
  createdBy: z.string().nullable().describe('ФИО загрузившего'),
  createdAt: isoDateTime,
  activatedAt: isoDateTime.nullable(),
  progress: sourceImportProgressSchema.nullable().describe('Ход импорта, пока он идёт'),
  failure: z.string().nullable().describe('Почему импорт отклонён или прерван'),
});
export type SourceImport = z.infer<typeof sourceImportSchema>;

export const sourceSchema = z.object({
  type: sourceTypeSchema,
  name: z.string().describe('Название на русском'),
  description: z.string(),
  itemKinds: z.array(itemKindSchema),
  adapter: z.enum(ADAPTER_KINDS).describe('dataset — записи в нашей базе; remote — HTTP-сервис'),
  activeVersion: z.number().int().nullable().describe('Активная версия набора данных (dataset)'),
  lastRefreshAt: isoDateTime.nullable().describe('Когда данные источника обновлялись последний раз'),
  recordCount: z.number().int().nullable().describe('Записей в активной версии (dataset)'),
  cacheTtlSeconds: z.number().int().nullable().describe('Срок хранения ответов (remote)'),
  answerP50Ms: z
    .number()
    .nullable()
    .describe('Медиана времени ответа на один объект (разовые проверки), мс (последние 500 ответов)'),
  answerP95Ms: z.number().nullable(),
  batchP50Ms: z
    .number()
    .nullable()
    .describe('Медиана времени на пакет объектов регулярной проверки, мс (последние 500 пакетов)'),
  batchP95Ms: z.number().nullable(),
  batchItemsP50: z.number().int().nullable().describe('Медиана объектов в пакете регулярной проверки'),
  consecutiveFailures: z.number().int().describe('Ошибок подряд в последних ответах'),
  lastFailureAt: isoDateTime.nullable(),
  lastError: z.string().nullable(),
  importing: z
    .object({ version: z.number().int() })
    .extend(sourceImportProgressSchema.shape)
    .nullable()
    .describe('Версия, которая сейчас загружается, и ход её загрузки'),
  provider: z.string().nullable().describe('Поставщик (SOURCE_<TYPE>_PROVIDER); null — набор данных'),
  rateLimit: z.number().nullable().describe('Запросов в секунду, все процессы вместе (remote)'),
  requestsToday: z
    .number()
    .int()
    .nullable()
    .describe('Запросов к поставщику за сегодня, московский день (remote)'),
  dailyLimit: z.number().int().nullable().describe('Дневной лимит запросов; null — без лимита'),
  coverage: z
    .number()
    .nullable()
    .describe('Доля активных объектов организации с ответом источника моложе срока хранения, 0…1 (remote)'),
  itemsWaiting: z
    .number()
    .int()
    .nullable()
    .describe('Активных объектов организации без свежего ответа источника: ждут запроса (remote)'),
  pricePerRequest: z.number().nullable().optional().describe('Цена запроса, ₽ (только администраторам)'),
  spendToday: z.number().nullable().optional().describe('Расход за сегодня, ₽ (только администраторам)'),
  spendMonth: z.number().nullable().optional().describe('Расход за месяц, ₽ (только администраторам)'),
});
export type Source = z.infer<typeof sourceSchema>;
export const sourcesResponseSchema = z.object({ items: z.array(sourceSchema) });

export const sourceImportsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(25),
});
export const sourceImportsResponseSchema = z.object({
  items: z.array(sourceImportSchema),
  total: z.number().int(),
});

// ─── Severities and event types ─────────────────────────────────────────────────────────────

export const SEVERITY_CODES = ['low', 'medium', 'high', 'critical'] as const;
export const severitySchema = z.enum(SEVERITY_CODES).describe('Важность события');
export type Severity = z.infer<typeof severitySchema>;
export const SEVERITIES: Readonly<Record<Severity, { label: string; rank: number }>> = {
  low: { label: 'Низкая', rank: 1 },
  medium: { label: 'Средняя', rank: 2 },
  high: { label: 'Высокая', rank: 3 },
  critical: { label: 'Критическая', rank: 4 },
};

export const EVENT_TYPE_CODES = [
  'pledge_registered_other',
  'pledge_changed',
  'pledge_excluded',
  'wanted_added',
  'wanted_removed',
  'restriction_added',
  'restriction_removed',
  'ownership_changed',
  'accident_recorded',
  'bankruptcy_opened',
  'bankruptcy_closed',
  'enforcement_opened',
  'enforcement_closed',
  'passport_invalid',
  'passport_invalid_removed',
  'finding_changed',
  'pledge_term_lapse',
] as const;
export const eventTypeSchema = z.enum(EVENT_TYPE_CODES, { error: 'Неизвестный тип события' });
export type EventType = z.infer<typeof eventTypeSchema>;
/** Event types a job raises (the pledge-term lapse), never a diff of a source's findings. */
export const JOB_EVENT_TYPES: readonly EventType[] = ['pledge_term_lapse'];

export interface EventTypeInfo {
  label: string;
  severity: Severity;
  /** The source whose findings raise it; `finding_changed` comes from any source. */
  source: SourceType | null;
  /**
   * Raised on an item's very first check too. Change-type events (an ownership change found in the
   * registration history, a changed record) are not: the first check sets the baseline.
   */
  onFirstCheck: boolean;
}

export const EVENT_TYPES: Readonly<Record<EventType, EventTypeInfo>> = {
  pledge_registered_other: {
    label: 'Залог зарегистрирован другим кредитором',
    severity: 'critical',
    source: 'pledges',
    onFirstCheck: true,
  },
  pledge_changed: {
    label: 'Изменены сведения о залоге',
    severity: 'medium',
    source: 'pledges',
    onFirstCheck: false,
  },
  pledge_excluded: { label: 'Залог прекращён', severity: 'high', source: 'pledges', onFirstCheck: false },
  wanted_added: { label: 'Объявлен в розыск', severity: 'critical', source: 'wanted', onFirstCheck: true },
  wanted_removed: { label: 'Снят с розыска', severity: 'medium', source: 'wanted', onFirstCheck: false },
  restriction_added: {
    label: 'Наложено ограничение',
    severity: 'high',
    source: 'restrictions',
    onFirstCheck: true,
  },
  restriction_removed: {
    label: 'Ограничение снято',
    severity: 'low',
    source: 'restrictions',
    onFirstCheck: false,
  },
  ownership_changed: {
    label: 'Смена владельца',
    severity: 'high',
    source: 'registration',
    onFirstCheck: false,
  },
  accident_recorded: {
    label: 'Зарегистрировано ДТП',
    severity: 'high',
    source: 'accidents',
    onFirstCheck: true,
  },
  bankruptcy_opened: {
    label: 'Возбуждено дело о банкротстве',
    severity: 'critical',
    source: 'bankruptcy',
    onFirstCheck: true,
  },
  bankruptcy_closed: {
    label: 'Дело о банкротстве завершено',
    severity: 'medium',
    source: 'bankruptcy',
    onFirstCheck: false,
  },
  enforcement_opened: {
    label: 'Возбуждено исполнительное производство',
    severity: 'high',
    source: 'enforcement',
    onFirstCheck: true,
  },
  enforcement_closed: {
    label: 'Исполнительное производство окончено',
    severity: 'low',
    source: 'enforcement',
    onFirstCheck: false,
  },
  passport_invalid: {
    label: 'Паспорт в списке недействительных',
    severity: 'critical',
    source: 'passport',
    onFirstCheck: true,
  },
  passport_invalid_removed: {
    label: 'Паспорт исключён из списка недействительных',
    severity: 'low',
    source: 'passport',
    onFirstCheck: false,
  },
  finding_changed: { label: 'Сведения изменились', severity: 'low', source: null, onFirstCheck: false },
  // Raised by the daily lapse job (30 and 7 days before the contract term ends, and on the day),
  // never by a source's findings; its severity grows as the day nears (PLEDGE_LAPSE_MILESTONES).
  pledge_term_lapse: {
    label: 'Истекает срок договора залога',
    severity: 'medium',
    source: 'pledges',
    onFirstCheck: false,
  },
};

// ─── Findings ───────────────────────────────────────────────────────────────────────────────

/**
 * One record a source holds about an item: a stable key (e.g. the pledge notice number) and the
 * record itself. Payload fields per source are listed in docs/datasets.md; `demo: true` marks
 * demonstration data, which the UI must label «ДЕМО».
 */
export const findingSchema = z.object({
  key: z.string().describe('Стабильный ключ записи источника (номер уведомления, дела, записи)'),
  payload: z.record(z.string(), z.unknown()).describe('Поля записи; см. docs/datasets.md'),
});
export type Finding = z.infer<typeof findingSchema>;

export const SOURCE_ANSWER_STATUSES = ['ok', 'failed', 'skipped'] as const;
export const SOURCE_ANSWER_STATUS_LABELS: Record<(typeof SOURCE_ANSWER_STATUSES)[number], string> = {
  ok: 'Проверено',
  failed: 'Источник недоступен',
  skipped: 'Не проверялось',
};

/** What one source said about one item. `failed` is never «nothing found». */
export const sourceAnswerSchema = z.object({
  type: sourceTypeSchema,
  name: z.string(),
  adapter: z.enum(ADAPTER_KINDS),
  provider: z
    .string()
    .nullable()
    .describe('Поставщик, ответивший за источник при проверке (SOURCE_<TYPE>_PROVIDER); null — набор данных'),
  status: z
    .enum(SOURCE_ANSWER_STATUSES)
    .describe(
      'ok — источник ответил; failed — источник недоступен (не «чисто»); skipped — не отвечает за такой документ',
    ),
  findings: z.array(findingSchema),
  error: z.string().nullable().describe('Причина отказа источника, на русском'),
  durationMs: z.number().int(),
  datasetVersion: z.number().int().nullable().describe('Версия набора данных, по которой проверено'),
  fromCache: z.boolean().describe('Ответ взят из кэша внешнего источника'),
});
export type SourceAnswer = z.infer<typeof sourceAnswerSchema>;

export const itemFindingsResponseSchema = z.object({
  itemId: z.string(),
  lastCheckedAt: isoDateTime.nullable(),
  sources: z.array(
    z.object({
      type: sourceTypeSchema,
      name: z.string(),
      findings: z.array(findingSchema),
      checkedAt: isoDateTime.nullable().describe('Когда находки этого источника менялись последний раз'),
    }),
  ),
});
export type ItemFindingsResponse = z.infer<typeof itemFindingsResponseSchema>;

// ─── Events ─────────────────────────────────────────────────────────────────────────────────

export const eventSchema = z.object({
  id: z.string(),
  type: eventTypeSchema,
  typeLabel: z.string(),
  severity: severitySchema,
  source: sourceTypeSchema,
  sourceName: z.string(),
  findingKey: z.string(),
  before: z.record(z.string(), z.unknown()).nullable().describe('Запись до изменения (null — не было)'),
  after: z.record(z.string(), z.unknown()).nullable().describe('Запись после изменения (null — исчезла)'),
  firstCheck: z.boolean().describe('Найдено при первой проверке объекта'),
  demo: z.boolean().describe('Событие по демонстрационным данным (показывать метку «ДЕМО»)'),
  detectedAt: isoDateTime,
  read: z.boolean(),
  runId: z.string().nullable(),
  item: z.object({
    id: z.string(),
    kind: itemKindSchema,
    documentType: z.string().nullable(),
    identifier: z.string(),
    label: z.string().nullable(),
    contractNumber: z.string().nullable(),
  }),
});
export type MonitoringEvent = z.infer<typeof eventSchema>;

const csvList = <T extends z.ZodType>(item: T) =>
  z.preprocess(
    (value) => (typeof value === 'string' ? value.split(',').filter(Boolean) : value),
    z.array(item).optional(),
  );
const booleanQuery = z.preprocess(
  (value) => (value === 'true' ? true : value === 'false' ? false : value),
  z.boolean().optional(),
);

/** Columns the events table sorts by on the server, each backed by an index (0022_event_sort_indexes.sql). */
export const EVENT_SORT_KEYS = ['detectedAt', 'severity', 'type', 'source'] as const;
export type EventSortKey = (typeof EVENT_SORT_KEYS)[number];

export const eventsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(25),
  from: dateTimeSchema.optional().describe('Начало периода (ISO)'),
  to: dateTimeSchema.optional().describe('Конец периода (ISO), не включая'),
  type: csvList(eventTypeSchema).describe('Типы событий через запятую'),
  severity: csvList(severitySchema).describe('Важность через запятую'),
  source: csvList(sourceTypeSchema).describe('Источники через запятую'),
  itemId: z.uuid({ error: 'Неверный идентификатор объекта' }).optional(),
  runId: z.uuid({ error: 'Неверный идентификатор проверки' }).optional(),
  read: booleanQuery.describe('true — прочитанные, false — непрочитанные'),
  search: z
    .string()
    .trim()
    .max(100)
    .optional()
    .describe('Поиск по VIN/номеру документа, метке, номеру договора'),
  sort: z
    .enum(EVENT_SORT_KEYS, { error: 'Сортировка: detectedAt, severity, type или source' })
    .default('detectedAt')
    .describe('Столбец сортировки; при равенстве — по времени в том же направлении'),
  order: z
    .enum(['asc', 'desc'], { error: 'Направление сортировки: asc или desc' })
    .default('desc')
    .describe('asc — по возрастанию, desc — по убыванию (по умолчанию — новые и важные сверху)'),
});
export type EventsQuery = z.input<typeof eventsQuerySchema>;
export const eventsResponseSchema = z.object({
  items: z.array(eventSchema),
  total: z.number().int(),
  unread: z.number().int().describe('Непрочитанных событий организации всего'),
});
export type EventsResponse = z.infer<typeof eventsResponseSchema>;

export const markEventsReadBodySchema = z.object({
  ids: z
    .array(z.uuid({ error: 'Неверный идентификатор события' }))
    .min(1)
    .max(1000),
  read: z.boolean().default(true),
});
export type MarkEventsReadBody = z.input<typeof markEventsReadBodySchema>;
export const markEventsReadResponseSchema = z.object({ updated: z.number().int() });

/** The events list's filter without its page and order: what «everything matching the filter» means. */
export const eventsFilterSchema = eventsQuerySchema.omit({
  page: true,
  pageSize: true,
  sort: true,
  order: true,
});
export type EventsFilter = z.input<typeof eventsFilterSchema>;
export const markEventsReadByFilterBodySchema = z.object({
  filter: eventsFilterSchema
    .default({})
    .describe('Фильтр списка событий, как в GET /monitoring/events/items'),
  read: z.boolean({ error: 'Укажите, прочитаны события или нет' }).default(true),
});
export type MarkEventsReadByFilterBody = z.input<typeof markEventsReadByFilterBodySchema>;

// ─── Check runs ─────────────────────────────────────────────────────────────────────────────

export const CHECK_RUN_STATUSES = [
  'queued',
  'running',
  'completed',
  'completed_with_errors',
  'failed',
] as const;
export const CHECK_RUN_STATUS_LABELS: Record<(typeof CHECK_RUN_STATUSES)[number], string> = {
  queued: 'В очереди',
  running: 'Выполняется',
  completed: 'Завершена',
  completed_with_errors: 'Завершена с ошибками источников',
  failed: 'Ошибка',
};
export const CHECK_RUN_TRIGGERS = ['manual', 'scheduled', 'pledge_registered'] as const;
export type CheckRunTrigger = (typeof CHECK_RUN_TRIGGERS)[number];
export const CHECK_RUN_TRIGGER_LABELS: Record<CheckRunTrigger, string> = {
  manual: 'Вручную',
  scheduled: 'По расписанию',
  pledge_registered: 'После регистрации пакета залогов (только его ТС)',
};

export const checkRunSourceProgressSchema = z.object({
  type: sourceTypeSchema,
  name: z.string(),
  batchesTotal: z.number().int(),
  batchesDone: z.number().int().describe('Частей, проверенных успешно'),
  batchesFailed: z.number().int().describe('Частей, где источник не ответил после всех попыток'),
  itemsChecked: z.number().int(),
  findings: z.number().int().describe('Объектов с находками'),
  events: z.number().int(),
  lastError: z.string().nullable(),
});

/** A source that failed during a run: its items were not checked by it (never shown as clean). */
export const failedSourceSchema = z.object({
  type: sourceTypeSchema,
  name: z.string(),
  batchesFailed: z.number().int().describe('Частей проверки, где источник не ответил после всех попыток'),
  itemsNotChecked: z.number().int().describe('Объектов в этих частях: этим источником не проверены'),
  reason: z.string().describe('Причина отказа (ошибка последней неудавшейся части), на русском'),
});
export type FailedSource = z.infer<typeof failedSourceSchema>;

export const checkRunSchema = z.object({
  id: z.string(),
  trigger: z.enum(CHECK_RUN_TRIGGERS),
  status: z.enum(CHECK_RUN_STATUSES),
  itemsTotal: z.number().int(),
  itemsDone: z.number().int().describe('Объектов, по которым отработали все источники'),
  batchesTotal: z.number().int(),
  batchesDone: z.number().int(),
  eventsCreated: z.number().int(),
  error: z.string().nullable(),
  createdBy: z.string().nullable().describe('ФИО запустившего (null — по расписанию)'),
  createdAt: isoDateTime,
  startedAt: isoDateTime.nullable(),
  finishedAt: isoDateTime.nullable(),
  sources: z.array(checkRunSourceProgressSchema).describe('Ход по источникам (пусто в списке)'),
  failedSources: z
    .array(failedSourceSchema)
    .describe(
      'Источники, не ответившие в этой проверке (статус completed_with_errors); пусто — все ответили',
    ),
});
export type CheckRun = z.infer<typeof checkRunSchema>;
export const checkRunsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(25),
});
export const checkRunsResponseSchema = z.object({ items: z.array(checkRunSchema), total: z.number().int() });

export const checkScheduleSchema = z.object({
  enabled: z.boolean(),
  time: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'Время в формате ЧЧ:ММ' })
    .describe('Время запуска по Москве, ЧЧ:ММ'),
  timezone: z.literal('Europe/Moscow').default('Europe/Moscow'),
  lastTriggeredAt: isoDateTime.nullable(),
  nextRunAt: isoDateTime.nullable().describe('Следующий запуск (null — выключено)'),
});
export type CheckSchedule = z.infer<typeof checkScheduleSchema>;
export const updateCheckScheduleBodySchema = z.object({
  enabled: z.boolean(),
  time: checkScheduleSchema.shape.time,
});
export type UpdateCheckScheduleBody = z.infer<typeof updateCheckScheduleBodySchema>;

// ─── One-time checks ────────────────────────────────────────────────────────────────────────

/** Either `vin`, or `documentType` + `documentNumber`. Values are validated as the forms do. */
export const oneTimeCheckBodySchema = z
  .object({
    vin: z.string().max(100).optional().describe('VIN как введён; нормализуется'),
    documentType: documentTypeCodeSchema.optional(),
    documentNumber: z.string().max(100).optional().describe('Номер документа как введён'),
  })
  .meta(
    requestExamples(
      { vin: 'XTA210740P0100001' },
      { documentType: 'passport_rf', documentNumber: '4506 123456' },
    ),
  );
export type OneTimeCheckBody = z.infer<typeof oneTimeCheckBodySchema>;

export const ONE_TIME_CHECK_STATUSES = ['completed', 'partial', 'failed'] as const;
export const ONE_TIME_CHECK_STATUS_LABELS: Record<(typeof ONE_TIME_CHECK_STATUSES)[number], string> = {
  completed: 'Все источники ответили',
  partial: 'Часть источников недоступна',
  failed: 'Источники недоступны',
};

export const oneTimeCheckSchema = z.object({
  id: z.string(),
  number: z.string().describe('Номер проверки, например ПР-2026-000123'),
  kind: itemKindSchema,
  documentType: documentTypeCodeSchema.nullable(),
  documentTypeLabel: z.string().nullable(),
  identifier: z.string().describe('Нормализованный VIN или номер документа'),
  identifierDisplay: z.string().describe('Для показа: «45 06 123456»'),
  decoded: vinDecodingSchema.nullable(),
  warnings: z.array(z.string()),
  status: z.enum(ONE_TIME_CHECK_STATUSES),
  findingsCount: z.number().int(),
  demo: z.boolean().describe('В ответах есть демонстрационные данные'),
  sources: z.array(sourceAnswerSchema),
  createdBy: z.object({ id: z.string().nullable(), fullName: z.string() }),
  createdAt: isoDateTime,
  durationMs: z.number().int(),
});
export type OneTimeCheck = z.infer<typeof oneTimeCheckSchema>;

export const oneTimeCheckSummarySchema = oneTimeCheckSchema.omit({
  sources: true,
  decoded: true,
  warnings: true,
});
export type OneTimeCheckSummary = z.infer<typeof oneTimeCheckSummarySchema>;
export const oneTimeChecksQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(25),
  search: z.string().trim().max(100).optional().describe('Поиск по VIN/номеру документа и номеру проверки'),
  kind: itemKindSchema.optional(),
});
export const oneTimeChecksResponseSchema = z.object({
  items: z.array(oneTimeCheckSummarySchema),
  total: z.number().int(),
});

export const oneTimeCheckDocumentBodySchema = z.object({
  id: z.uuid({ error: 'Неверный идентификатор проверки' }),
});

/** Everything the printable document (and the PDF) shows, already formatted in Russian. */
export const oneTimeCheckDocumentSchema = z.object({
  id: z.string(),
  title: z.string().describe('Заголовок документа'),
  number: z.string(),
  organisation: z.string(),
  checkedBy: z.string().describe('ФИО проверившего'),
  checkedAt: isoDateTime,
  checkedAtMoscow: z.string().describe('Дата и время по Москве, «12.03.2026 14:05 (МСК)»'),
  subject: z.object({
    kind: itemKindSchema,
    kindLabel: z.string().describe('«VIN» или название типа документа'),
    identifier: z.string(),
    identifierDisplay: z.string(),
    decoding: z
      .array(z.object({ label: z.string(), value: z.string() }))
      .describe('Строки расшифровки (изготовитель, страна, модельный год, контрольная цифра)'),
    warnings: z.array(z.string()),
  }),
  status: z.enum(ONE_TIME_CHECK_STATUSES),
  statusLabel: z.string(),
  summary: z.string().describe('Итог одной фразой'),
  sources: z.array(
    z.object({
      type: sourceTypeSchema,
      name: z.string(),
      answeredBy: z.string().describe('Кто ответил: поставщик («Федресурс», «Автокод»…) или «Набор данных»'),
      status: z.enum(SOURCE_ANSWER_STATUSES),
      statusLabel: z.string(),
      answer: z
        .string()
        .describe('Ответ источника одной фразой: «Сведений не найдено», «Найдено записей: 2»…'),
      findings: z.array(
        z.object({
          key: z.string(),
          lines: z
            .array(z.object({ label: z.string(), value: z.string() }))
            .describe('Поля записи на русском'),
        }),
      ),
    }),
  ),
  demo: z.boolean().describe('Документ содержит демонстрационные данные'),
  disclaimer: z.string(),
  pdfUrl: z.string().describe('Адрес PDF этого документа'),
});
export type OneTimeCheckDocument = z.infer<typeof oneTimeCheckDocumentSchema>;

/** Russian labels of the payload fields that dataset files carry (docs/datasets.md). */
export const FINDING_FIELD_LABELS: Readonly<Record<string, string>> = {
  notice_number: 'Номер уведомления',
  status: 'Статус',
  registered_at: 'Дата регистрации',
  pledgor: 'Залогодатель',
  pledgee: 'Залогодержатель',
  pledgee_inn: 'ИНН залогодержателя',
  contract: 'Договор',
  record_id: 'Номер записи',
  since: 'С даты',
  region: 'Регион',
  initiator: 'Инициатор',
  kind: 'Вид',
  imposed_at: 'Дата наложения',
  imposed_by: 'Кем наложено',
  basis: 'Основание',
  operation: 'Операция',
  date: 'Дата',
  owner_type: 'Владелец',
  damage: 'Повреждения',
  case_number: 'Номер дела',
  court: 'Суд',
  opened_at: 'Дата возбуждения',
  closed_at: 'Дата окончания',
  debtor: 'Должник',
  last_message: 'Последнее сообщение',
  last_message_at: 'Дата последнего сообщения',
  proceeding_number: 'Номер производства',
  amount: 'Сумма, руб.',
  department: 'Отдел судебных приставов',
  subject: 'Предмет исполнения',
  reason: 'Причина',
  note: 'Примечание',
  verified: 'Подтверждение',
  own: 'Залог вашей организации',
  contract_end_date: 'Срок договора до',
  days_left: 'Осталось дней',
  registration_number: 'Регистрационный номер залога',
  passport: 'Паспорт',
  list: 'Перечень',
};

/**
 * The text of a payload field that is a flag rather than data (the `pledges` source's `verified` and
 * `own`), or null for any other field. Every place that prints findings uses it.
 */
export function findingFlagText(field: string, value: unknown): string | null {
  if (field === 'verified' && typeof value === 'boolean') {
    return value ? 'подтверждено реестром' : 'не подтверждено реестром';
  }
  if (field === 'own' && typeof value === 'boolean') {
    return value ? 'да' : 'нет';
  }
  return null;
}
