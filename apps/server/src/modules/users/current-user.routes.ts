import { meResponseSchema } from '@pledgewatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errors } from '../../lib/http.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { getCurrentUser } from './users.service.ts';

/**
 * `GET /api/v1/auth/me`: registered under the auth prefix but served by the users module, so the auth
 * module (sessions, sign-in) does not depend on users (which depends on auth for sessions and throttling).
 */
export const currentUserRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/me',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'Текущий пользователь',
        response: { 200: meResponseSchema, ...errors(401) },
      },
    },
    async (request) => ({ user: await getCurrentUser({ db: fastify.db, auth: requireAuth(request) }) }),
  );
};
