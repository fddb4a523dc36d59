import {
  auditExportQuerySchema,
  auditFacetsResponseSchema,
  auditQuerySchema,
  auditResponseSchema,
} from '@pledgewatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { attachment, errors } from '../../lib/http.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { exportAuditEntries, findAuditEntries, getAuditFacets } from './audit.service.ts';

/** `/api/v1/audit`: the organisation's log of actions, for its administrators. */
export const auditRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const adminOnly = [fastify.authenticate, fastify.requireRole('admin')];

  app.get(
    '/',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['audit'],
        summary: 'Журнал действий организации: кто, что и когда изменил',
        querystring: auditQuerySchema,
        response: { 200: auditResponseSchema, ...errors(401, 403, 422) },
      },
    },
    async (request) => findAuditEntries({ db: fastify.db, auth: requireAuth(request), query: request.query }),
  );

  app.get(
    '/facets',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['audit'],
        summary: 'Значения для фильтров журнала: действия, объекты, сотрудники',
        response: { 200: auditFacetsResponseSchema, ...errors(401, 403) },
      },
    },
    async (request) => getAuditFacets({ db: fastify.db, auth: requireAuth(request) }),
  );

  app.get(
    '/export',
    {
      exposeHeadRoute: false,
      onRequest: adminOnly,
      schema: {
        tags: ['audit'],
        summary: 'Журнал действий файлом (XLSX или CSV) с теми же фильтрами',
        querystring: auditExportQuerySchema,
        produces: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'text/csv'],
        response: { 200: z.any().describe('Файл журнала'), ...errors(401, 403, 422) },
      },
    },
    async (request, reply) => {
      const file = exportAuditEntries({ db: fastify.db, auth: requireAuth(request), query: request.query });
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', attachment(file.fileName))
        .header('cache-control', 'no-store')
        .send(file.body);
    },
  );
};
