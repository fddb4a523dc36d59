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
} from '@pledgewatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errors } from '../../lib/http.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { addItems, findItems, getItem, updateItem, updateStatuses } from './monitoring.service.ts';

const itemParams = z.object({ id: z.uuid({ error: 'Неверный идентификатор объекта' }) });

/** `/api/v1/monitoring`: the portfolio and its hand entry. Viewers read only. */
export const monitoringRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const writers = [fastify.authenticate, fastify.requireRole('admin', 'analyst')];

  app.get(
    '/items',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['monitoring'],
        summary: 'Объекты мониторинга: VIN или документы (entity), страницы, сортировка, поиск, статус',
        querystring: itemsQuerySchema,
        response: { 200: itemsResponseSchema, ...errors(401, 422) },
      },
    },
    async (request) => findItems({ db: fastify.db, auth: requireAuth(request), ...request.query }),
  );

  app.post(
    '/items/bulk-status',
    {
      onRequest: writers,
      schema: {
        tags: ['monitoring'],
        summary: 'Сменить статус нескольких объектов (пауза, возобновление, архив)',
        body: bulkStatusBodySchema,
        response: { 200: bulkStatusResponseSchema, ...errors(401, 403, 422) },
      },
    },
    async (request) => updateStatuses({ db: fastify.db, auth: requireAuth(request), ...request.body }),
  );

  app.get(
    '/items/:id',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['monitoring'],
        summary: 'Объект мониторинга с расшифровкой VIN',
        params: itemParams,
        response: { 200: monitoringItemSchema, ...errors(401, 404, 422) },
      },
    },
    async (request) => getItem({ db: fastify.db, auth: requireAuth(request), itemId: request.params.id }),
  );

  app.patch(
    '/items/:id',
    {
      onRequest: writers,
      schema: {
        tags: ['monitoring'],
        summary: 'Изменить метку, договор, залогодателя или статус объекта',
        params: itemParams,
        body: updateItemBodySchema,
        response: { 200: monitoringItemSchema, ...errors(401, 403, 404, 422) },
      },
    },
    async (request) =>
      updateItem({
        db: fastify.db,
        auth: requireAuth(request),
        itemId: request.params.id,
        changes: request.body,
      }),
  );

  app.post(
    '/regular-check/form-vin',
    {
      onRequest: writers,
      schema: {
        tags: ['monitoring'],
        summary: 'Добавить VIN вручную: одна или несколько строк; ответ — добавленные, повторы и отклонённые',
        body: formVinBodySchema,
        response: { 200: addItemsResponseSchema, ...errors(401, 403, 422) },
      },
    },
    async (request) =>
      addItems({ db: fastify.db, auth: requireAuth(request), kind: 'vin', rows: request.body.rows }),
  );

  app.post(
    '/regular-check/form-doc',
    {
      onRequest: writers,
      schema: {
        tags: ['monitoring'],
        summary: 'Добавить документы залогодателей вручную: одна или несколько строк',
        body: formDocBodySchema,
        response: { 200: addItemsResponseSchema, ...errors(401, 403, 422) },
      },
    },
    async (request) =>
      addItems({ db: fastify.db, auth: requireAuth(request), kind: 'document', rows: request.body.rows }),
  );
};
