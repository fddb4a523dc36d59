import { dashboardResponseSchema } from '@pledgewatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errors } from '../../lib/http.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { getDashboard } from './dashboard.service.ts';

/** `/api/v1/monitoring/dashboard`: the counts of the home screen. */
export const dashboardRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/dashboard',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['dashboard'],
        summary:
          'Сводка главной страницы: портфель по видам и статусам, непрочитанные события, последняя проверка, ошибки уведомлений, последние разовые проверки',
        response: { 200: dashboardResponseSchema, ...errors(401) },
      },
    },
    async (request) => getDashboard({ db: fastify.db, auth: requireAuth(request) }),
  );
};
