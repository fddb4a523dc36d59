import { errorResponseSchema } from '@pledgewatch/contract';
import type { FastifyRequest } from 'fastify';

/** Error responses for route schemas, so the OpenAPI document shows the one error shape. */
export const errors = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [status, errorResponseSchema])) as Record<
    number,
    typeof errorResponseSchema
  >;

export const clientInfo = (request: FastifyRequest) => ({
  ip: request.ip ?? null,
  userAgent: request.headers['user-agent'] ?? null,
});
