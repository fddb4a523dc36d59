import { apiKeyEndpoints } from '@pledgewatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../lib/endpoint-route.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { createApiKey, findApiKeys, revokeApiKey } from './api-keys.service.ts';

/** An admin signed in as a person manages the keys; a key itself never reaches these (plugins/auth.ts). */
export const apiKeyRoutes: FastifyPluginAsync = async (fastify) => {
  const adminOnly = { onRequest: [fastify.authenticate, fastify.requireRole('admin')] };

  route(fastify, apiKeyEndpoints.list, adminOnly, async (request) =>
    findApiKeys({ db: fastify.db, auth: requireAuth(request) }),
  );

  route(fastify, apiKeyEndpoints.create, adminOnly, async (request) =>
    createApiKey({ db: fastify.db, auth: requireAuth(request), body: request.body }),
  );

  route(fastify, apiKeyEndpoints.revoke, adminOnly, async (request) =>
    revokeApiKey({ db: fastify.db, auth: requireAuth(request), id: request.params.id }),
  );
};
