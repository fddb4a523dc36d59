import { authEndpoints, platformEndpoints } from '@pledgewatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../lib/endpoint-route.ts';
import { findOutbox } from './platform.service.ts';

export const buildRoutes: FastifyPluginAsync<{ buildId: string }> = async (fastify, { buildId }) => {
  route(fastify, authEndpoints.buildInfo, {}, async (_request, reply) => {
    // A JSON string: Fastify would send a bare string as text/plain.
    return reply.header('cache-control', 'no-store').type('application/json').send(JSON.stringify(buildId));
  });
};

/** Platform staff tools: the mail outbox (every mail the app wrote, sent or not). */
export const platformRoutes: FastifyPluginAsync = async (fastify) => {
  route(
    fastify,
    platformEndpoints.outbox,
    { onRequest: [fastify.authenticate, fastify.requireStaff] },
    async (request) => findOutbox({ db: fastify.db, ...request.query }),
  );
};
