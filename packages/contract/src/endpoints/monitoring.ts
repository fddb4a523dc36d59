import { dashboardResponseSchema } from '../dashboard.ts';
import { defineEndpoint } from '../endpoint.ts';
import {
  addItemsResponseSchema,
  bulkStatusBodySchema,
  bulkStatusResponseSchema,
  formDocBodySchema,
  formVinBodySchema,
  itemsQuerySchema,
  itemsResponseSchema,
  monitoringItemSchema,
  updateItemBodySchema,
} from '../monitoring-items.ts';
import { reportQuerySchema } from '../reports.ts';
import { statisticsBodySchema, statisticsResponseSchema } from '../statistics.ts';
import { fileResponse, idParams, XLSX } from './params.ts';

const itemParams = idParams('Неверный идентификатор объекта');

/** `/api/v1/monitoring`: the portfolio and its hand entry; the home screen, statistics and reports. */
export const monitoringEndpoints = {
  items: defineEndpoint({
    method: 'GET',
    path: '/api/v1/monitoring/items',
    tags: ['monitoring'],
    summary: 'Объекты мониторинга: VIN или документы (entity), страницы, сортировка, поиск, статус',
    query: itemsQuerySchema,
    response: itemsResponseSchema,
    errors: [401, 422],
  }),
  bulkStatus: defineEndpoint({
    method: 'POST',
    path: '/api/v1/monitoring/items/bulk-status',
    tags: ['monitoring'],
    summary: 'Сменить статус нескольких объектов (пауза, возобновление, архив)',
    body: bulkStatusBodySchema,
    response: bulkStatusResponseSchema,
    errors: [401, 403, 422],
  }),
  item: defineEndpoint({
    method: 'GET',
    path: '/api/v1/monitoring/items/:id',
    tags: ['monitoring'],
    summary: 'Объект мониторинга с расшифровкой VIN',
    params: itemParams,
    response: monitoringItemSchema,
    errors: [401, 404, 422],
  }),
  updateItem: defineEndpoint({
    method: 'PATCH',
    path: '/api/v1/monitoring/items/:id',
    tags: ['monitoring'],
    summary: 'Изменить метку, договор, залогодателя или статус объекта',
    params: itemParams,
    body: updateItemBodySchema,
    response: monitoringItemSchema,
    errors: [401, 403, 404, 422],
  }),
  addVins: defineEndpoint({
    method: 'POST',
    path: '/api/v1/monitoring/regular-check/form-vin',
    tags: ['monitoring'],
    summary: 'Добавить VIN вручную: одна или несколько строк; ответ — добавленные, повторы и отклонённые',
    body: formVinBodySchema,
    response: addItemsResponseSchema,
    errors: [401, 403, 422],
  }),
  addDocuments: defineEndpoint({
    method: 'POST',
    path: '/api/v1/monitoring/regular-check/form-doc',
    tags: ['monitoring'],
    summary: 'Добавить документы залогодателей вручную: одна или несколько строк',
    body: formDocBodySchema,
    response: addItemsResponseSchema,
    errors: [401, 403, 422],
  }),
  dashboard: defineEndpoint({
    method: 'GET',
    path: '/api/v1/monitoring/dashboard',
    tags: ['dashboard'],
    summary:
      'Сводка главной страницы: портфель по видам и статусам, непрочитанные события, последняя проверка, ошибки уведомлений, последние разовые проверки',
    response: dashboardResponseSchema,
    errors: [401],
  }),
  statistics: defineEndpoint({
    method: 'POST',
    path: '/api/v1/monitoring/statistics/data',
    tags: ['statistics'],
    summary:
      'Ряды статистики за период по дням, неделям или месяцам (МСК): события по типам, портфель, проверки, загрузки, уведомления',
    body: statisticsBodySchema,
    response: statisticsResponseSchema,
    errors: [401, 422],
  }),
  /** A plain GET, so a link downloads it with the session cookie; the web streams it for progress. */
  report: defineEndpoint({
    method: 'GET',
    path: '/api/v1/monitoring/report',
    tags: ['reports'],
    summary:
      'Отчёт файлом: события за период, портфель с находками, разовые проверки или загрузки — XLSX, CSV или PDF',
    query: reportQuerySchema,
    produces: [XLSX, 'text/csv', 'application/pdf'],
    responseType: 'blob',
    response: fileResponse('Файл отчёта: XLSX, CSV (разделитель «;», UTF-8 с BOM или Windows-1251) или PDF'),
    errors: [401, 422],
  }),
};
