import { z } from 'zod';
import { ROLE_LABELS } from './auth.ts';
import { SOURCE_TYPES } from './checks.ts';
import { isoDateTime, paginated, paginationQuerySchema } from './common.ts';
import {
  NOTIFICATION_METHOD_LABELS,
  NOTIFICATION_MODE_LABELS,
  NOTIFICATION_SUBJECT_LABELS,
} from './notifications.ts';
import { PACKAGE_STATUS_LABELS, PARTY_TYPE_LABELS, PLEDGE_EVENT_KIND_LABELS } from './pledges.ts';
import { moscowDateSchema } from './statistics.ts';
import { UPLOAD_KIND_LABELS } from './uploads.ts';

/** Who did it: a member of the organisation, or nobody (the system, or a since-deleted person). */
export const auditActorSchema = z.object({ id: z.string(), fullName: z.string(), email: z.string() });

export const auditEntrySchema = z.object({
  id: z.string(),
  createdAt: isoDateTime,
  actor: auditActorSchema.nullable(),
  action: z.string().describe('Код действия, например `user.updated`'),
  entity: z.string().describe('Вид объекта, например `user`'),
  entityId: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).describe('Что изменилось: поля действия, «было» и «стало»'),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

const auditFilterShape = {
  actorId: z.string().uuid({ error: 'Неизвестный сотрудник' }).optional().describe('Кто выполнил действие'),
  action: z.string().trim().max(100).optional().describe('Код действия'),
  entity: z.string().trim().max(100).optional().describe('Вид объекта'),
  entityId: z.string().trim().max(100).optional().describe('Идентификатор объекта'),
  from: moscowDateSchema.optional().describe('Первый день периода (МСК), включительно'),
  to: moscowDateSchema.optional().describe('Последний день периода (МСК), включительно'),
};
const periodInOrder = (query: { from?: string; to?: string }) =>
  !query.from || !query.to || query.from <= query.to;
const PERIOD_ORDER = { error: 'Конец периода раньше начала', path: ['to'] };

export const auditQuerySchema = paginationQuerySchema
  .extend(auditFilterShape)
  .refine(periodInOrder, PERIOD_ORDER);
export type AuditQuery = z.infer<typeof auditQuerySchema>;
export const auditResponseSchema = paginated(auditEntrySchema);
export type AuditResponse = z.infer<typeof auditResponseSchema>;

export const AUDIT_EXPORT_FORMATS = ['xlsx', 'csv'] as const;
export const auditExportQuerySchema = z
  .object({ ...auditFilterShape, format: z.enum(AUDIT_EXPORT_FORMATS).default('xlsx') })
  .refine(periodInOrder, PERIOD_ORDER);
export type AuditExportQuery = z.infer<typeof auditExportQuerySchema>;

/** What the filters can offer: the actions, objects and people present in the organisation's log. */
export const auditFacetsResponseSchema = z.object({
  actions: z.array(z.string()),
  entities: z.array(z.string()),
  actors: z.array(auditActorSchema),
});
export type AuditFacets = z.infer<typeof auditFacetsResponseSchema>;

/**
 * Russian names of the logged actions. Shared by the screen and the export, so a file and the page
 * say the same thing; an action missing here is shown by its code.
 */
export const AUDIT_ACTION_LABELS = {
  'api_key.created': 'Создание ключа API',
  'api_key.revoked': 'Отзыв ключа API',
  'check_run.started': 'Запуск регулярной проверки',
  'check_schedule.updated': 'Изменение расписания проверок',
  'email.changed': 'Смена e-mail',
  'invite.accepted': 'Принято приглашение',
  'monitoring.items_added': 'Добавление объектов мониторинга',
  'monitoring.items_status': 'Смена статуса объектов',
  'news.created': 'Создание новости',
  'news.deleted': 'Удаление новости',
  'news.updated': 'Изменение новости',
  'notification_rule.create': 'Создание правила уведомлений',
  'notification_rule.delete': 'Удаление правила уведомлений',
  'notification_rule.update': 'Изменение правила уведомлений',
  'password.changed': 'Смена пароля',
  'password.reset': 'Сброс пароля',
  'pledge.events_imported': 'Загрузка уведомлений о залоге',
  'pledge.creation': 'Уведомление о возникновении залога',
  'pledge.change': 'Уведомление об изменении залога',
  'pledge.exclusion': 'Уведомление об исключении залога',
  'pledge.corrected': 'Исправление уведомления о залоге',
  'pledge_package.created': 'Создание пакета уведомлений',
  'pledge_package.events_added': 'Добавление событий в пакет',
  'pledge_package.events_removed': 'Исключение событий из пакета',
  'pledge_package.exported': 'Выгрузка пакета',
  'pledge_package.registration_numbers': 'Ввод регистрационных номеров',
  'pledge_package.approve': 'Одобрение пакета',
  'pledge_package.return': 'Возврат пакета в черновик',
  'pledge_package.send': 'Отправка пакета в реестр',
  'pledge_package.register': 'Регистрация пакета реестром',
  'pledge_package.reject': 'Отказ реестра по пакету',
  'pledge_package.registry_results': 'Загрузка ответа реестра по пакету',
  'source.cache_invalidated': 'Сброс кэша источника',
  'source.imported': 'Загрузка набора данных источника',
  'upload.imported': 'Импорт загрузки',
  'user.invited': 'Приглашение сотрудника',
  'user.invite_existing': 'Приглашение сотрудника с действующей учётной записью',
  'user.updated': 'Изменение сотрудника',
} as const satisfies Record<string, string>;
/** Every code the server may record: `recordAudit` takes only these, so a new code needs its label first. */
export type AuditAction = keyof typeof AUDIT_ACTION_LABELS;

export const AUDIT_ENTITY_LABELS: Record<string, string> = {
  api_key: 'Ключ API',
  check_run: 'Регулярная проверка',
  check_schedule: 'Расписание проверок',
  monitoring_item: 'Объекты мониторинга',
  news: 'Новость',
  notification_rule: 'Правило уведомлений',
  pledge_event: 'Событие реестра залогов',
  pledge_package: 'Пакет уведомлений',
  source: 'Источник',
  source_import: 'Набор данных источника',
  upload: 'Загрузка',
  user: 'Сотрудник',
};

export const auditActionLabel = (action: string): string =>
  (AUDIT_ACTION_LABELS as Record<string, string>)[action] ?? action;
export const auditEntityLabel = (entity: string): string => AUDIT_ENTITY_LABELS[entity] ?? entity;

/** Russian names of the fields the server records in an entry's details (nested ones too). */
const DETAIL_LABELS: Record<string, string> = {
  active: 'Активен',
  added: 'Добавлено',
  birthDate: 'дата рождения',
  bodyNumber: 'номер кузова',
  bytes: 'Размер файла, байт',
  certificates: 'Свидетельства',
  chassisNumber: 'номер шасси',
  comment: 'Комментарий',
  config: 'Настройки доставки',
  contract: 'Договор',
  contractNumber: 'Номер договора',
  date: 'дата',
  description: 'описание',
  digestHour: 'Час сводки',
  documentNumber: 'номер документа',
  documentType: 'документ',
  draft: 'Черновик',
  duplicates: 'Повторов',
  email: 'E-mail',
  enabled: 'Включено',
  endDate: 'срок исполнения',
  eventTypes: 'Типы событий',
  events: 'Событий',
  failureThreshold: 'Порог сбоев',
  fields: 'Поля',
  file: 'Файл',
  fileName: 'Файл',
  firstName: 'имя',
  format: 'Формат',
  fullName: 'ФИО',
  inn: 'ИНН',
  inserted: 'Добавлено',
  itemFilter: 'Фильтр объектов',
  kind: 'Вид',
  label: 'метка',
  lastName: 'фамилия',
  method: 'Способ',
  middleName: 'отчество',
  minSeverity: 'Важность не ниже',
  mode: 'Режим',
  monitoringAdded: 'Поставлено на мониторинг',
  monitoringArchived: 'Отправлено в архив',
  name: 'Название',
  notificationDate: 'Дата уведомления',
  notificationId: 'уведомление',
  notifyRecovery: 'Сообщать о восстановлении',
  number: 'номер',
  ogrn: 'ОГРН',
  packageId: 'Пакет',
  pledgee: 'Залогодержатель',
  pledgeId: 'Залог',
  pledgor: 'Залогодатель',
  reason: 'причина',
  recipients: 'Кому',
  records: 'Записей',
  registrationNumber: 'Рег. номер',
  rejected: 'Отклонено',
  rejectedPackageId: 'Отклонённый пакет',
  rejections: 'Отказы',
  removed: 'Удалено',
  restored: 'Восстановлено',
  role: 'Роль',
  secret: 'Секрет',
  sourceType: 'Источник',
  staleHours: 'Часов без обновления',
  status: 'Статус',
  subject: 'Предмет',
  time: 'Время',
  timezone: 'Часовой пояс',
  title: 'Заголовок',
  token: 'Токен',
  type: 'Тип',
  updated: 'Изменено',
  url: 'Адрес',
  vehicles: 'Транспортные средства',
  version: 'Версия',
  vin: 'VIN',
};

/** Codes some fields hold, in words («registered» → «Зарегистрирован»); other values are shown as they are. */
const VALUE_LABELS: Record<string, Readonly<Record<string, string>>> = {
  documentType: { passport_rf: 'паспорт РФ', driving_licence: 'водительское удостоверение' },
  from: PACKAGE_STATUS_LABELS,
  kind: { ...PLEDGE_EVENT_KIND_LABELS, ...UPLOAD_KIND_LABELS, vin: 'VIN', document: 'Документ' },
  method: NOTIFICATION_METHOD_LABELS,
  mode: NOTIFICATION_MODE_LABELS,
  role: ROLE_LABELS,
  subject: NOTIFICATION_SUBJECT_LABELS,
  to: PACKAGE_STATUS_LABELS,
  type: {
    ...PARTY_TYPE_LABELS,
    ...Object.fromEntries(Object.entries(SOURCE_TYPES).map(([type, info]) => [type, info.name])),
  },
};

const fieldLabel = (key: string): string => DETAIL_LABELS[key] ?? key;
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/**
 * A database id (a pledge's, a package's) or a list of them: kept in the entry for the record's link
 * and the export's object column, never shown as «Залог: 4432e7f2-…», which no reader can use.
 */
const isInternalId = (value: unknown): boolean =>
  (typeof value === 'string' && UUID.test(value)) ||
  (Array.isArray(value) && value.length > 0 && value.every(isInternalId));

const scalarValue = (value: unknown): string => {
  if (value === null || value === undefined || value === '') {
    return '—';
  }
  if (typeof value === 'boolean') {
    return value ? 'да' : 'нет';
  }
  return String(value);
};

/**
 * A value as words, never as JSON: an object as «поле: значение» pairs, a list of objects one after
 * another (a vehicle, a certificate), a list of values by commas.
 */
const detailValue = (value: unknown, key = ''): string => {
  if (Array.isArray(value)) {
    const parts = value.map((inner) => detailValue(inner, key));
    return parts.length === 0 ? '—' : parts.join(value.some(isRecord) ? '; ' : ', ');
  }
  if (isRecord(value)) {
    const pairs = Object.entries(value).filter(
      ([, inner]) => inner !== undefined && inner !== null && !isInternalId(inner),
    );
    const words = pairs.map(
      ([inner, innerValue]) => `${fieldLabel(inner)}: ${detailValue(innerValue, inner)}`,
    );
    return words.length === 0 ? '—' : words.join(', ');
  }
  return typeof value === 'string' && value !== ''
    ? (VALUE_LABELS[key]?.[value] ?? value)
    : scalarValue(value);
};

/** A nested state flattened to «Договор, номер»-style labels, so two states compare field by field. */
function flatten(value: unknown, key: string, label: string, into: Map<string, string>): Map<string, string> {
  if (isInternalId(value)) {
    return into;
  }
  if (isRecord(value)) {
    for (const [inner, innerValue] of Object.entries(value)) {
      flatten(innerValue, inner, label ? `${label}, ${fieldLabel(inner)}` : fieldLabel(inner), into);
    }
  } else {
    into.set(label, detailValue(value, key));
  }
  return into;
}

/**
 * What changed, one line per field: `changes` ({ field: { from, to } }) and a `before`/`after` pair of
 * whole states (only the fields that differ) as «Поле: было → стало», other keys as «Поле: значение».
 */
export function describeAuditDetails(details: Record<string, unknown>): string[] {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(details)) {
    if (isInternalId(value)) {
      continue;
    }
    if (key === 'changes' && isRecord(value)) {
      for (const [field, change] of Object.entries(value)) {
        const { from, to } = isRecord(change) ? change : { from: undefined, to: change };
        lines.push(`${fieldLabel(field)}: ${detailValue(from, field)} → ${detailValue(to, field)}`);
      }
      continue;
    }
    if (key === 'before' && 'after' in details) {
      const before = flatten(value, '', '', new Map());
      const after = flatten(details.after, '', '', new Map());
      for (const field of new Set([...before.keys(), ...after.keys()])) {
        if (before.get(field) !== after.get(field)) {
          lines.push(`${field}: ${before.get(field) ?? '—'} → ${after.get(field) ?? '—'}`);
        }
      }
      continue;
    }
    if (key === 'after' && 'before' in details) {
      continue;
    }
    // A transition recorded as top-level from/to (a package's status, a changed e-mail) is one change.
    if (key === 'from' && 'to' in details) {
      const field = [value, details.to].every((status) => String(status) in PACKAGE_STATUS_LABELS)
        ? 'Статус'
        : String(value).includes('@')
          ? 'E-mail'
          : 'Значение';
      lines.push(`${field}: ${detailValue(value, key)} → ${detailValue(details.to, 'to')}`);
      continue;
    }
    if (key === 'to' && 'from' in details) {
      continue;
    }
    if (value === undefined) {
      continue;
    }
    lines.push(`${fieldLabel(key)}: ${detailValue(value, key)}`);
  }
  return lines;
}
