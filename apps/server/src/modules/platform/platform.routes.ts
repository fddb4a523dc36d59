import { buildInfoResponseSchema, outboxQuerySchema, outboxResponseSchema } from '@pledgewatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errors } from '../../lib/http.ts';
import { findOutbox } from './platform.service.ts';

export const buildRoutes: FastifyPluginAsync<{ buildId: string }> = async (fastify, { buildId }) => {
  fastify.withTypeProvider<ZodTypeProvider>().get(
    '/info',
    {
      schema: {
        tags: ['platform'],
        summary: 'Идентификатор сборки; веб-клиент перезагружается, когда он меняется',
        security: [],
        response: { 200: buildInfoResponseSchema },
      },
    },
    async (_request, reply) => {
      // A JSON string: Fastify would send a bare string as text/plain.
      return reply.header('cache-control', 'no-store').type('application/json').send(JSON.stringify(buildId));
    },
  );
};

/** Platform staff tools: the mail outbox (every mail the app wrote, sent or not). */
export const platformRoutes: FastifyPluginAsync = async (fastify) => {
  fastify.withTypeProvider<ZodTypeProvider>().get(
    '/outbox',
    {
      onRequest: [fastify.authenticate, fastify.requireStaff],
      schema: {
        tags: ['platform'],
        summary: 'Исходящая почта (для сотрудников платформы)',
        querystring: outboxQuerySchema,
        response: { 200: outboxResponseSchema, ...errors(401, 403, 422) },
      },
    },
    async (request) => findOutbox({ db: fastify.db, ...request.query }),
  );
};
