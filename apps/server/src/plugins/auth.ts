import type { Role } from '@pledgewatch/contract';
import { API_KEY_PREFIX } from '@pledgewatch/contract';
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

/** One answer for any key that does not work: whether it ever existed is nobody's business. */
const API_KEY_REFUSED = 'Ключ API недействителен: неизвестен, отозван или истёк срок его действия';

/** A key works for the organisation's data, never for accounts, sessions or keys. */
const KEY_FORBIDDEN_ROUTES = ['/api/v1/users', '/api/v1/user/', '/api/v1/api-keys', '/api/v1/auth/logout'];

function refuseKeyOnAccountRoutes(url: string): void {
  if (
    KEY_FORBIDDEN_ROUTES.some(
      (prefix) => url === prefix || url.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`),
    )
  ) {
    throw new AppError('FORBIDDEN', {
      message: 'Ключ API не управляет пользователями, сеансами и ключами: войдите как администратор',
    });
  }
}

/**
 * Each key's requests per minute, in this process (the API is served by the app process; workers
 * serve none): a fixed one-minute window per key, 429 with Retry-After beyond the key's limit.
 */
export class KeyRateLimiter {
  readonly #windows = new Map<string, { start: number; count: number }>();
  readonly #now: () => number;
  constructor(now: () => number = Date.now) {
    this.#now = now;
  }
  take(keyId: string, perMinute: number): void {
    const now = this.#now();
    let window = this.#windows.get(keyId);
    if (!window || now - window.start >= 60_000) {
      window = { start: now, count: 0 };
      this.#windows.set(keyId, window);
      if (this.#windows.size > 10_000) {
        // Old windows of keys gone quiet: drop them rather than grow without end.
        for (const [id, old] of this.#windows) {
          if (now - old.start >= 60_000) {
            this.#windows.delete(id);
          }
        }
      }
    }
    window.count++;
    if (window.count > perMinute) {
      const seconds = Math.max(1, Math.ceil((window.start + 60_000 - now) / 1000));
      throw new AppError('RATE_LIMITED', {
        message: `Слишком много запросов с этим ключом API (не больше ${perMinute} в минуту). Повторите через ${seconds} с`,
        headers: { 'retry-after': String(seconds) },
      });
    }
  }
}

const keyRate = new KeyRateLimiter();

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
      if (!auth || (auth.apiKey && found.source !== 'bearer')) {
        throw new AppError('UNAUTHORIZED', {
          message: found.token.startsWith(API_KEY_PREFIX)
            ? API_KEY_REFUSED
            : 'Сеанс истёк или завершён. Войдите снова',
        });
      }
      if (auth.apiKey) {
        refuseKeyOnAccountRoutes(request.routeOptions.url ?? request.url);
        keyRate.take(auth.apiKey.id, auth.apiKey.rateLimitPerMinute);
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
