import type { FastifyReply, FastifyRequest } from 'fastify';

/** The seed's cookie name; the server alone writes it (HttpOnly), so page scripts never see the token. */
export const AUTH_COOKIE = 'auth_token';

const attributes = (request: FastifyRequest) => ({
  httpOnly: true,
  // Lax: links from mail into the app keep the session; cross-site writes are refused by the Origin check.
  sameSite: 'lax' as const,
  path: '/',
  // request.protocol follows the app's trust-proxy setting, so X-Forwarded-Proto counts only from a trusted proxy.
  secure: request.protocol === 'https',
});

export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
  maxAgeSeconds: number,
): void {
  reply.setCookie(AUTH_COOKIE, token, { ...attributes(request), maxAge: maxAgeSeconds });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(AUTH_COOKIE, attributes(request));
}

export const hasSessionCookie = (request: FastifyRequest): boolean =>
  typeof request.cookies?.[AUTH_COOKIE] === 'string';
