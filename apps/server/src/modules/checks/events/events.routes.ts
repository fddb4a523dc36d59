import {
  eventsQuerySchema,
  eventsResponseSchema,
  itemFindingsResponseSchema,
  markEventsReadBodySchema,
  markEventsReadResponseSchema,
} from '@pledgewatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errors } from '../../../lib/http.ts';
import { requireAuth } from '../../../plugins/auth.ts';
import { idParams } from '../checks-routes-shared.ts';
import { findEvents, getItemFindings, markEventsRead } from './events.service.ts';

/** `/api/v1/monitoring/events/...` and an item's findings; registered by checksRoutes. */
export const eventRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const writers = [fastify.authenticate, fastify.requireRole('admin', 'analyst')];

  app.get(
    '/events/items',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['checks'],
        summary:
          'События мониторинга: фильтры по периоду, типу, важности, источнику, объекту, прочтению; новые сверху',
        querystring: eventsQuerySchema,
        response: { 200: eventsResponseSchema, ...errors(401, 422) },
      },
    },
    async (request) => findEvents({ db: fastify.db, auth: requireAuth(request), ...request.query }),
  );

  app.post(
    '/events/read',
    {
      onRequest: writers,
      schema: {
        tags: ['checks'],
        summary: 'Отметить события прочитанными (read: true) или непрочитанными (read: false)',
        body: markEventsReadBodySchema,
        response: { 200: markEventsReadResponseSchema, ...errors(401, 403, 422) },
      },
    },
    async (request) => markEventsRead({ db: fastify.db, auth: requireAuth(request), ...request.body }),
  );

  app.get(
    '/items/:id/findings',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['checks'],
        summary: 'Текущие находки объекта по источникам (по последней проверке)',
        params: idParams('объекта'),
        response: { 200: itemFindingsResponseSchema, ...errors(401, 404, 422) },
      },
    },
    async (request) =>
      getItemFindings({ db: fastify.db, auth: requireAuth(request), itemId: request.params.id }),
  );
};
