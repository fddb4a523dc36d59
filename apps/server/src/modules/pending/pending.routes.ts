import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error.ts';
import { errors } from '../../lib/http.ts';

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * Seed calls whose feature has not landed yet. They exist in the contract from the start and
 * answer 501 with a Russian message; each feature removes its lines when it registers real routes.
 */
const PENDING_CALLS: { method: Method; url: string; summary: string; tag: string }[] = [];

export const pendingRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  for (const call of PENDING_CALLS) {
    app.route({
      method: call.method,
      url: call.url,
      onRequest: fastify.authenticate,
      schema: { tags: [call.tag], summary: `${call.summary} (в разработке)`, response: errors(401, 501) },
      handler: async () => {
        throw new AppError('NOT_IMPLEMENTED');
      },
    });
  }
};
