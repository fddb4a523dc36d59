import { monitoringEndpoints as endpoints } from '@pledgewatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../lib/endpoint-route.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { addItems, findItems, getItem, updateItem, updateStatuses } from './monitoring.service.ts';

/** `/api/v1/monitoring`: the portfolio and its hand entry. Viewers read only. */
export const monitoringRoutes: FastifyPluginAsync = async (fastify) => {
  const readers = { onRequest: fastify.authenticate };
  const writers = { onRequest: [fastify.authenticate, fastify.requireRole('admin', 'analyst')] };

  route(fastify, endpoints.items, readers, async (request) =>
    findItems({ db: fastify.db, auth: requireAuth(request), ...request.query }),
  );

  route(fastify, endpoints.bulkStatus, writers, async (request) =>
    updateStatuses({ db: fastify.db, auth: requireAuth(request), ...request.body }),
  );

  route(fastify, endpoints.item, readers, async (request) =>
    getItem({ db: fastify.db, auth: requireAuth(request), itemId: request.params.id }),
  );

  route(fastify, endpoints.updateItem, writers, async (request) =>
    updateItem({
      db: fastify.db,
      auth: requireAuth(request),
      itemId: request.params.id,
      changes: request.body,
    }),
  );

  route(fastify, endpoints.addVins, writers, async (request) =>
    addItems({ db: fastify.db, auth: requireAuth(request), kind: 'vin', rows: request.body.rows }),
  );

  route(fastify, endpoints.addDocuments, writers, async (request) =>
    addItems({ db: fastify.db, auth: requireAuth(request), kind: 'document', rows: request.body.rows }),
  );
};
