import { auditEndpoints } from '@pledgewatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../lib/endpoint-route.ts';
import { attachment } from '../../lib/http.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { exportAuditEntries, findAuditEntries, getAuditFacets } from './audit.service.ts';

/** `/api/v1/audit`: the organisation's log of actions, for its administrators. */
export const auditRoutes: FastifyPluginAsync = async (fastify) => {
  const adminOnly = [fastify.authenticate, fastify.requireRole('admin')];

  route(fastify, auditEndpoints.list, { onRequest: adminOnly }, async (request) =>
    findAuditEntries({ db: fastify.db, auth: requireAuth(request), query: request.query }),
  );

  route(fastify, auditEndpoints.facets, { onRequest: adminOnly }, async (request) =>
    getAuditFacets({ db: fastify.db, auth: requireAuth(request) }),
  );

  route(
    fastify,
    auditEndpoints.export,
    { onRequest: adminOnly, exposeHeadRoute: false },
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
