import helmet from '@fastify/helmet';
import fp from 'fastify-plugin';

/**
 * The Content-Security-Policy of every response (web app, API, static files, error pages, API docs).
 * Scripts only from our own origin, never inline; styles may be inline because MUI/emotion inserts
 * <style> tags at runtime (a nonce would need every page render to hand it to emotion, and inline
 * styles cannot run code).
 */
export const CONTENT_SECURITY_POLICY = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'connect-src': ["'self'"],
  'font-src': ["'self'", 'data:'],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
  'frame-src': ["'none'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'manifest-src': ["'self'"],
  'object-src': ["'none'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'worker-src': ["'self'"],
};

/** One year; sent only over HTTPS (browsers ignore it on plain HTTP, and a local HTTP run must keep working). */
const HSTS = 'max-age=31536000; includeSubDomains';

/** Security headers on every response, including 404s and errors (helmet's hook runs first). */
export default fp(
  async (fastify) => {
    await fastify.register(helmet, {
      global: true,
      contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
      // Sent below, only over HTTPS.
      strictTransportSecurity: false,
      // Not `no-referrer`: with it browsers send `Origin: null` on same-origin writes, which the
      // CSRF check would refuse. Cross-origin requests get only our origin, never a path with a token.
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      xFrameOptions: { action: 'deny' },
    });
    fastify.addHook('onRequest', async (request, reply) => {
      if (request.protocol === 'https') {
        reply.header('strict-transport-security', HSTS);
      }
    });
  },
  { name: 'security-headers' },
);
