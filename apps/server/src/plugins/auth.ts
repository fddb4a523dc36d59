import type { Role } from '@pledgewatch/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Queryable } from '../db/pool.ts';
import { AppError } from '../lib/app-error.ts';
import type { AuthContext } from '../lib/auth-context.ts';
import { requestSite, UNSAFE_METHODS } from '../lib/same-origin.ts';
import { AUTH_COOKIE, setSessionCookie } from '../lib/session-cookie.ts';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyInstance {
    /** preHandler: 401 unless a valid session token came with the request. */
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** preHandler factory: 403 unless the user has one of the roles. */
    requireRole: (...roles: Role[]) => (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    requireStaff: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

/**
 * The Bearer header (API clients) first, else the HttpOnly `auth_token` cookie the server set at
 * sign-in (the web app and plain download links).
 */
export function readToken(request: FastifyRequest): { token: string; source: 'bearer' | 'cookie' } | null {
  const header = request.headers.authorization;
  if (header) {
    const token = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim();
    return token ? { token, source: 'bearer' } : null;
  }
  const cookie = request.cookies?.[AUTH_COOKIE];
  return cookie ? { token: cookie, source: 'cookie' } : null;
}

export const requireAuth = (request: FastifyRequest): AuthContext => {
  if (!request.auth) {
    throw new AppError('UNAUTHORIZED');
  }
  return request.auth;
};

/** How a session token becomes the request's auth; the auth module's, handed over by buildApp. */
export type AuthenticateToken = (options: {
  db: Queryable;
  token: string;
  sessionTtl: number;
}) => Promise<AuthContext | null>;

export default fp<{ sessionTtl: number; appUrl: string; authenticateToken: AuthenticateToken }>(
  async (fastify, options) => {
    fastify.decorateRequest('auth', null);

    fastify.decorate('authenticate', async (request: FastifyRequest, reply: FastifyReply) => {
      const found = readToken(request);
      if (!found) {
        throw new AppError('UNAUTHORIZED');
      }
      // A cookie goes along with any request the browser makes, also one a foreign page triggers:
      // a cookie-authenticated write must come from our own pages (CSRF). Bearer callers are unaffected.
      if (
        found.source === 'cookie' &&
        UNSAFE_METHODS.has(request.method) &&
        requestSite(request, options.appUrl) !== 'same-origin'
      ) {
        throw new AppError('CROSS_SITE_REQUEST');
      }
      const auth = await options.authenticateToken({
        db: fastify.db,
        token: found.token,
        sessionTtl: options.sessionTtl,
      });
      if (!auth) {
        throw new AppError('UNAUTHORIZED', { message: 'Сеанс истёк или завершён. Войдите снова' });
      }
      if (found.source === 'cookie') {
        // The session slides with use; the cookie's lifetime follows it.
        setSessionCookie(request, reply, found.token, options.sessionTtl);
      }
      request.auth = auth;
    });

    fastify.decorate('requireRole', (...roles: Role[]) => async (request: FastifyRequest) => {
      if (!roles.includes(requireAuth(request).role)) {
        throw new AppError('FORBIDDEN');
      }
    });

    fastify.decorate('requireStaff', async (request: FastifyRequest) => {
      if (!requireAuth(request).isStaff) {
        throw new AppError('FORBIDDEN');
      }
    });
  },
  { name: 'auth', dependencies: ['db', '@fastify/cookie'] },
);
