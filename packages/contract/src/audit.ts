import { z } from 'zod';
import { isoDateTime, paginated, paginationQuerySchema } from './common.ts';
import { moscowDateSchema } from './statistics.ts';

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
export const AUDIT_ACTION_LABELS: Record<string, string> = {
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
};

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

export const auditActionLabel = (action: string): string => AUDIT_ACTION_LABELS[action] ?? action;
export const auditEntityLabel = (entity: string): string => AUDIT_ENTITY_LABELS[entity] ?? entity;

const DETAIL_LABELS: Record<string, string> = {
  active: 'Активен',
  added: 'Добавлено',
  comment: 'Комментарий',
  draft: 'Черновик',
  title: 'Заголовок',
  email: 'E-mail',
  events: 'Событий',
  fields: 'Поля',
  format: 'Формат',
  from: 'Было',
  fullName: 'ФИО',
  kind: 'Вид',
  method: 'Способ',
  name: 'Название',
  records: 'Записей',
  registrationNumber: 'Рег. номер',
  rejected: 'Отклонено',
  removed: 'Удалено',
  restored: 'Восстановлено',
  role: 'Роль',
  status: 'Статус',
  to: 'Стало',
  type: 'Тип',
  updated: 'Изменено',
  version: 'Версия',
};

const detailValue = (value: unknown): string => {
  if (value === null || value === undefined || value === '') {
    return '—';
  }
  if (typeof value === 'boolean') {
    return value ? 'да' : 'нет';
  }
  if (Array.isArray(value)) {
    return value.map(detailValue).join(', ');
  }
  if (typeof value === 'object') {
    return JSON.stringify(value);
  }
  return String(value);
};

/**
 * What changed, one line per field: `changes` ({ field: { from, to } }) as «Поле: было → стало», other
 * keys as «Поле: значение».
 */
export function describeAuditDetails(details: Record<string, unknown>): string[] {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(details)) {
    if (key === 'changes' && value && typeof value === 'object') {
      for (const [field, change] of Object.entries(
        value as Record<string, { from?: unknown; to?: unknown }>,
      )) {
        lines.push(
          `${DETAIL_LABELS[field] ?? field}: ${detailValue(change?.from)} → ${detailValue(change?.to)}`,
        );
      }
      continue;
    }
    if (value === undefined) {
      continue;
    }
    lines.push(`${DETAIL_LABELS[key] ?? key}: ${detailValue(value)}`);
  }
  return lines;
}
