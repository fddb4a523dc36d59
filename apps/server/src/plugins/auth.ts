import type { Role } from '@pledgewatch/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error.ts';
import { authenticateToken } from '../modules/auth/auth.service.ts';

/** Who is calling: always taken from the session, never from the request body. */
export interface AuthContext {
  sessionId: string;
  userId: string;
  organisationId: string;
  role: Role;
  isStaff: boolean;
}

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

/** Bearer header first; the `auth_token` cookie is accepted for plain downloads (links cannot set headers). */
export function readToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (header) {
    const match = /^Bearer\s+(.+)$/i.exec(header);
    return match?.[1]?.trim() || null;
  }
  if (request.method === 'GET') {
    const cookie = request.headers.cookie ?? '';
    const match = /(?:^|;\s*)auth_token=([^;]+)/.exec(cookie);
    return match?.[1] ? decodeURIComponent(match[1]) : null;
  }
  return null;
}

export const requireAuth = (request: FastifyRequest): AuthContext => {
  if (!request.auth) {
    throw new AppError('UNAUTHORIZED');
  }
  return request.auth;
};

export default fp<{ sessionTtl: number }>(
  async (fastify, options) => {
    fastify.decorateRequest('auth', null);

    fastify.decorate('authenticate', async (request: FastifyRequest) => {
      const token = readToken(request);
      if (!token) {
        throw new AppError('UNAUTHORIZED');
      }
      const auth = await authenticateToken({ db: fastify.db, token, sessionTtl: options.sessionTtl });
      if (!auth) {
        throw new AppError('UNAUTHORIZED', { message: 'Сеанс истёк или завершён. Войдите снова' });
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
  { name: 'auth', dependencies: ['db'] },
);
