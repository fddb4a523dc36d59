import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { BOSS_SCHEMA } from '../jobs/job-registry.ts';
import {
  hasMetricsToken,
  httpRequestDuration,
  registry,
  routeLabel,
  setQueueMetricsSource,
} from '../lib/metrics.ts';

export interface MetricsPluginOptions {
  /** METRICS_TOKEN; without it `/metrics` is not served (a 404 like any unknown page). */
  token: string | undefined;
}

/**
 * Times every request by its route pattern and status, and serves the registry at `GET /metrics`
 * to `Authorization: Bearer <METRICS_TOKEN>` only. Registered first, so that its hook sees requests
 * that end in an error or a 404 too.
 */
export default fp<MetricsPluginOptions>(
  async (fastify, options) => {
    fastify.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
      httpRequestDuration.observe(
        {
          method: request.method,
          route: routeLabel(request.routeOptions.url),
          status_code: String(reply.statusCode),
        },
        reply.elapsedTime / 1000,
      );
    });
    const { token } = options;
    if (!token) {
      return;
    }
    fastify.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      if (!hasMetricsToken(request.headers.authorization, token)) {
        return reply
          .code(401)
          .header('www-authenticate', 'Bearer')
          .type('text/plain; charset=utf-8')
          .send('Нужен заголовок Authorization: Bearer <METRICS_TOKEN>\n');
      }
      return reply
        .header('cache-control', 'no-store')
        .type(registry.contentType)
        .send(await registry.metrics());
    });
  },
  { name: 'metrics' },
);

/** The app's queue gauge reads pg-boss's counts through the API's pool (see lib/metrics.ts). */
export const queueMetricsPlugin = fp(
  async (fastify) => {
    const release = setQueueMetricsSource({ db: fastify.db, schema: BOSS_SCHEMA });
    fastify.addHook('onClose', async () => release());
  },
  { name: 'queue-metrics', dependencies: ['db'] },
);
