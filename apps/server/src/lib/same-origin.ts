import type { FastifyRequest } from 'fastify';

/** Methods that change state; GET and HEAD must stay free of side effects. */
export const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Where a browser says a request comes from. Browsers set `Sec-Fetch-Site` and `Origin` themselves
 * (pages cannot forge them), so a cross-site form or fetch cannot pass as one of our own pages.
 * `unknown`: neither header, i.e. not a browser (curl, an API client, app.inject in tests).
 */
export function requestSite(
  request: FastifyRequest,
  appUrl: string,
): 'same-origin' | 'cross-site' | 'unknown' {
  const fetchSite = request.headers['sec-fetch-site'];
  if (typeof fetchSite === 'string') {
    return fetchSite === 'same-origin' ? 'same-origin' : 'cross-site';
  }
  const origin = request.headers.origin;
  if (typeof origin === 'string') {
    return allowedOrigins(request, appUrl).has(origin.toLowerCase()) ? 'same-origin' : 'cross-site';
  }
  return 'unknown';
}

/**
 * APP_URL's origin and the origin the request was addressed to. Both schemes are accepted for the
 * request's own host: a TLS-terminating proxy that does not forward the scheme must not lock users out,
 * and a page on our own host is not a cross-site attacker.
 */
function allowedOrigins(request: FastifyRequest, appUrl: string): Set<string> {
  const origins = new Set<string>();
  try {
    origins.add(new URL(appUrl).origin.toLowerCase());
  } catch {
    // APP_URL is validated at start; nothing to add otherwise.
  }
  const host = request.host?.toLowerCase();
  if (host) {
    origins.add(`http://${host}`);
    origins.add(`https://${host}`);
  }
  return origins;
}
