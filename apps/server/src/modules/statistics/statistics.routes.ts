import { statisticsBodySchema, statisticsResponseSchema } from '@pledgewatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errors } from '../../lib/http.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { getStatistics } from './statistics.service.ts';

/** `/api/v1/monitoring/statistics`: series for the charts of /monitoring/statistics. */
export const statisticsRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/data',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['statistics'],
        summary:
          'Ряды статистики за период по дням, неделям или месяцам (МСК): события по типам, портфель, проверки, загрузки, уведомления',
        body: statisticsBodySchema,
        response: { 200: statisticsResponseSchema, ...errors(401, 422) },
      },
    },
    async (request) => getStatistics({ db: fastify.db, auth: requireAuth(request), query: request.body }),
  );
};
