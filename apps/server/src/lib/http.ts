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

/** Content-Disposition with a Cyrillic file name (RFC 6266 / 5987) and an ASCII fallback. */
export const attachment = (fileName: string) =>
  `attachment; filename="${fileName.replace(/[^\x20-\x7e]/g, '_').replaceAll('"', '')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
