import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { AUTH_COOKIE } from '../lib/session-cookie.ts';

/**
 * OpenAPI generated from the routes' zod schemas; JSON at /api/docs/json, UI at /api/docs. Each
 * operation's `operationId` comes from the contract (lib/endpoint-route.ts); `servers` is APP_URL.
 * A module's root route answers with and without a trailing slash (`/api/v1/monitoring/uploads/`,
 * as it always has); the document names it without.
 */
export default fp<{ appUrl: string }>(
  async (fastify, options) => {
    await fastify.register(swagger, {
      openapi: {
        info: {
          title: 'Pledgewatch API',
          description:
            'API мониторинга залогового имущества. Ошибки: { statusCode, code, message, fieldErrors? }. ' +
            'Вход: ключ API (Authorization: Bearer pwk_…) для интеграций или сеанс пользователя. ' +
            'Повтор POST без дубликатов: заголовок Idempotency-Key. Подробно: docs/integration.md.',
          version: '1.0.0',
          license: { name: 'Proprietary' },
        },
        servers: [{ url: options.appUrl, description: 'Этот экземпляр Pledgewatch' }],
        components: {
          securitySchemes: {
            bearerAuth: {
              type: 'http',
              scheme: 'bearer',
              description:
                'Ключ API (pwk_…, Настройки → Ключи API) или access_token из POST /api/v1/auth/login',
            },
            cookieAuth: {
              type: 'apiKey',
              in: 'cookie',
              name: AUTH_COOKIE,
              description: 'Сеанс веб-приложения (HttpOnly cookie, ставится при входе)',
            },
          },
        },
        security: [{ bearerAuth: [] }, { cookieAuth: [] }],
      },
      transform: (input) => {
        const transformed = jsonSchemaTransform(input);
        // Fastify documents a module's root route under its slash form; the document names it without.
        return input.url.length > 1 && input.url.endsWith('/')
          ? { ...transformed, url: input.url.slice(0, -1) }
          : transformed;
      },
    });
    await fastify.register(swaggerUi, { routePrefix: '/api/docs' });
  },
  { name: 'swagger' },
);
