import { authEndpoints } from '@pledgewatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../lib/endpoint-route.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { getCurrentUser } from './users.service.ts';

/**
 * `GET /api/v1/auth/me`: registered under the auth prefix but served by the users module, so the auth
 * module (sessions, sign-in) does not depend on users (which depends on auth for sessions and throttling).
 */
export const currentUserRoutes: FastifyPluginAsync = async (fastify) => {
  route(fastify, authEndpoints.me, { onRequest: fastify.authenticate }, async (request) => ({
    user: await getCurrentUser({ db: fastify.db, auth: requireAuth(request) }),
  }));
};
