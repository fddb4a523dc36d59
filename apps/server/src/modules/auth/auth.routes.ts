import { authEndpoints } from '@pledgewatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { AppConfig } from '../../config/env.ts';
import { AppError } from '../../lib/app-error.ts';
import { route } from '../../lib/endpoint-route.ts';
import { clientInfo } from '../../lib/http.ts';
import { requestSite } from '../../lib/same-origin.ts';
import { clearSessionCookie, setSessionCookie } from '../../lib/session-cookie.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { login, logout } from './auth.service.ts';

export const authRoutes: FastifyPluginAsync<{ config: AppConfig }> = async (fastify, { config }) => {
  route(
    fastify,
    authEndpoints.login,
    {
      // Login CSRF: a foreign page must not sign the browser into someone else's account. API
      // clients send no Origin and are unaffected.
      onRequest: async (request) => {
        if (requestSite(request, config.appUrl) === 'cross-site') {
          throw new AppError('CROSS_SITE_REQUEST');
        }
      },
    },
    async (request, reply) => {
      const { token } = await login({
        db: fastify.db,
        config,
        username: request.body.username,
        password: request.body.password,
        ...clientInfo(request),
      });
      // The web app relies on the HttpOnly cookie; the body keeps the OAuth2 answer for API clients.
      setSessionCookie(request, reply, token, config.sessionTtl);
      return { access_token: token, token_type: 'bearer' as const };
    },
  );

  route(fastify, authEndpoints.logout, { onRequest: fastify.authenticate }, async (request, reply) => {
    await logout({ db: fastify.db, auth: requireAuth(request) });
    clearSessionCookie(request, reply);
    return { message: 'Вы вышли из системы' };
  });
};
