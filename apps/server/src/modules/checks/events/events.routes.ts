import { checkEndpoints as endpoints } from '@pledgewatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../../lib/endpoint-route.ts';
import { requireAuth } from '../../../plugins/auth.ts';
import { findEvents, getItemFindings, markEventsRead, markEventsReadByFilter } from './events.service.ts';

/** `/api/v1/monitoring/events/...` and an item's findings; registered by checksRoutes. */
export const eventRoutes: FastifyPluginAsync = async (fastify) => {
  const writers = [fastify.authenticate, fastify.requireRole('admin', 'analyst')];

  route(fastify, endpoints.events, { onRequest: fastify.authenticate }, async (request) =>
    findEvents({ db: fastify.db, auth: requireAuth(request), ...request.query }),
  );

  route(fastify, endpoints.markEventsRead, { onRequest: writers }, async (request) =>
    markEventsRead({ db: fastify.db, auth: requireAuth(request), ...request.body }),
  );

  route(fastify, endpoints.markEventsReadByFilter, { onRequest: writers }, async (request) =>
    markEventsReadByFilter({ db: fastify.db, auth: requireAuth(request), ...request.body }),
  );

  route(fastify, endpoints.itemFindings, { onRequest: fastify.authenticate }, async (request) =>
    getItemFindings({ db: fastify.db, auth: requireAuth(request), itemId: request.params.id }),
  );
};
