import { defineEndpoint } from '../endpoint.ts';
import { healthLiveResponseSchema, healthReadyResponseSchema } from '../health.ts';

/** `/api/v1/health/*`: for load balancers and service managers, without sign-in. */
export const healthEndpoints = {
  live: defineEndpoint({
    method: 'GET',
    path: '/api/v1/health/live',
    tags: ['platform'],
    summary: 'Процесс жив и отвечает (без обращения к базе данных)',
    public: true,
    response: healthLiveResponseSchema,
  }),
  ready: defineEndpoint({
    method: 'GET',
    path: '/api/v1/health/ready',
    tags: ['platform'],
    summary:
      'Готов принимать запросы: база данных отвечает, миграции применены, очередь задач запущена. 503 называет неисправные части в fieldErrors; результат кэшируется на 1 с',
    public: true,
    response: healthReadyResponseSchema,
    errors: [503],
  }),
};
