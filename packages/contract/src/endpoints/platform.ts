import {
  auditExportQuerySchema,
  auditFacetsResponseSchema,
  auditQuerySchema,
  auditResponseSchema,
} from '../audit.ts';
import { defineEndpoint } from '../endpoint.ts';
import { outboxQuerySchema, outboxResponseSchema } from '../platform.ts';
import { fileResponse, XLSX } from './params.ts';

/** Platform staff tools: the mail outbox (every mail the app wrote, sent or not). */
export const platformEndpoints = {
  outbox: defineEndpoint({
    method: 'GET',
    path: '/api/v1/platform/outbox',
    tags: ['platform'],
    summary: 'Исходящая почта (для сотрудников платформы)',
    query: outboxQuerySchema,
    response: outboxResponseSchema,
    errors: [401, 403, 422],
  }),
};

/** `/api/v1/audit`: the organisation's log of actions, for its administrators. */
export const auditEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: '/api/v1/audit',
    tags: ['audit'],
    summary: 'Журнал действий организации: кто, что и когда изменил',
    query: auditQuerySchema,
    response: auditResponseSchema,
    errors: [401, 403, 422],
  }),
  facets: defineEndpoint({
    method: 'GET',
    path: '/api/v1/audit/facets',
    tags: ['audit'],
    summary: 'Значения для фильтров журнала: действия, объекты, сотрудники',
    response: auditFacetsResponseSchema,
    errors: [401, 403],
  }),
  export: defineEndpoint({
    method: 'GET',
    path: '/api/v1/audit/export',
    tags: ['audit'],
    summary: 'Журнал действий файлом (XLSX или CSV) с теми же фильтрами',
    query: auditExportQuerySchema,
    produces: [XLSX, 'text/csv'],
    responseType: 'blob',
    response: fileResponse('Файл журнала'),
    errors: [401, 403, 422],
  }),
};
