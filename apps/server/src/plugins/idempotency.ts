import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error.ts';
import {
  completeIdempotentRequest,
  forgetIdempotentRequest,
  reserveIdempotentRequest,
} from '../lib/idempotency.queries.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A creating POST that honours `Idempotency-Key` (set by lib/endpoint-route.ts). */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    idempotency: { organisationId: string; key: string } | null;
  }
}

/**
 * What identifies "the same request": the route and its body. A JSON body is hashed as sent; a
 * multipart upload is streamed to disk by its handler after this point, so it is known by its
 * length (a retry of the same file has the same length; another file almost never does).
 */
function requestHash(request: FastifyRequest): string {
  const body = String(request.headers['content-type'] ?? '').startsWith('multipart/')
    ? `multipart:${request.headers['content-length'] ?? ''}`
    : JSON.stringify(request.body ?? null);
  return createHash('sha256').update(`${request.method} ${request.routeOptions.url}\n${body}`).digest('hex');
}

/**
 * `Idempotency-Key` on the creating POSTs (contract: IDEMPOTENT_ENDPOINTS), per organisation, for
 * 24 hours: the first request reserves the key, its 2xx answer is kept and replayed to every retry
 * with the same body (`Idempotent-Replayed: true`), and nothing is created twice. The same key with
 * another body is a 422; a retry while the first is still running, a 409. A failed first request
 * frees the key for a retry.
 */
export default fp(
  async (fastify) => {
    fastify.decorateRequest('idempotency', null);

    fastify.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
      const key = request.headers['idempotency-key'];
      if (!request.routeOptions.config.idempotent || typeof key !== 'string' || !request.auth) {
        return;
      }
      const organisationId = request.auth.organisationId;
      const outcome = await reserveIdempotentRequest(fastify.db, {
        organisationId,
        key,
        method: request.method,
        route: request.routeOptions.url ?? request.url,
        requestHash: requestHash(request),
      });
      if (outcome.kind === 'reserved') {
        request.idempotency = { organisationId, key };
      } else if (outcome.kind === 'replay') {
        reply.code(outcome.status).header('idempotent-replayed', 'true');
        if (outcome.contentType) {
          reply.header('content-type', outcome.contentType);
        }
        return reply.send(outcome.body);
      } else if (outcome.kind === 'different') {
        throw new AppError('IDEMPOTENCY_KEY_REUSED');
      } else {
        throw new AppError('IDEMPOTENCY_IN_PROGRESS', { headers: { 'retry-after': '2' } });
      }
      return undefined;
    });

    fastify.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      const held = request.idempotency;
      if (!held) {
        return payload;
      }
      request.idempotency = null;
      if (reply.statusCode >= 200 && reply.statusCode < 300 && typeof payload === 'string') {
        await completeIdempotentRequest(fastify.db, {
          ...held,
          status: reply.statusCode,
          body: payload,
          contentType: String(reply.getHeader('content-type') ?? ''),
        });
      } else {
        await forgetIdempotentRequest(fastify.db, held);
      }
      return payload;
    });
  },
  { name: 'idempotency', dependencies: ['db', 'auth'] },
);
