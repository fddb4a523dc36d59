import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyHttpOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { AppConfig } from '../config/env.ts';
import { AppError, ERRORS } from '../lib/app-error.ts';

/**
 * How long a client may take, so a slow or stalled one cannot hold a connection (and an upload's
 * partial file) for ever: headers, the whole request, a connection with no traffic, and a minimum
 * rate for request bodies (uploads above all).
 */
type Limits = Pick<
  AppConfig,
  'httpHeadersTimeout' | 'httpRequestTimeout' | 'httpIdleTimeout' | 'uploadMinRate' | 'uploadRateWindow'
>;

const seconds = (value: number) => Math.round(value * 1000);

/** Answers a request Node timed out (headers or whole request) with 408 in the one error shape. */
function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) {
    return;
  }
  const [status, code, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'REQUEST_TIMEOUT', ERRORS.REQUEST_TIMEOUT.message]
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'BAD_REQUEST', ERRORS.BAD_REQUEST.message]
        : [400, 'BAD_REQUEST', ERRORS.BAD_REQUEST.message];
  const body = JSON.stringify({ statusCode: status, code, message });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${status === 408 ? 'Request Timeout' : 'Bad Request'}\r\nConnection: close\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/** Fastify's server options for the header, request and idle timeouts. */
export function transferTimeouts(config: Limits): FastifyHttpOptions<Server> {
  const request = seconds(config.httpRequestTimeout);
  const headers = Math.min(seconds(config.httpHeadersTimeout), request);
  return {
    requestTimeout: request,
    connectionTimeout: seconds(config.httpIdleTimeout),
    // Node checks the header and request deadlines on this interval (30 s by default, too coarse).
    http: { headersTimeout: headers, connectionsCheckingInterval: Math.min(1000, headers) },
    clientErrorHandler,
  };
}

/**
 * The minimum rate of a request body, uploads above all: every window, the bytes the socket received
 * must reach rate × window. A slower upload ends its file stream with 408 UPLOAD_TOO_SLOW (the route
 * removes the partial file), any other body with 408 REQUEST_TIMEOUT; the connection is closed after
 * the answer. This, not HTTP_REQUEST_TIMEOUT, is what stops a drip early: the whole-request limit must
 * allow a dataset of gigabytes on an ordinary line.
 */
export default fp<Limits>(
  async (fastify, limits) => {
    const windowMs = seconds(limits.uploadRateWindow);
    const minBytes = limits.uploadMinRate * limits.uploadRateWindow;
    fastify.addHook('onRequest', async (request) => {
      if (!request.headers['content-length'] && !request.headers['transfer-encoding']) {
        return; // no body to wait for
      }
      const multipart = request.headers['content-type']?.toLowerCase().startsWith('multipart/') === true;
      const raw = request.raw;
      const socket = raw.socket;
      if (typeof socket?.bytesRead !== 'number') {
        return; // app.inject: no network, nothing to wait for
      }
      let seen = socket.bytesRead;
      const timer = setInterval(() => {
        if (raw.complete || raw.destroyed) {
          clearInterval(timer);
          return;
        }
        const received = socket.bytesRead - seen;
        seen = socket.bytesRead;
        if (received >= minBytes) {
          return;
        }
        clearInterval(timer);
        request.log.warn({ received, windowMs }, 'request body slower than UPLOAD_MIN_RATE: ended with 408');
        const error = new AppError(multipart ? 'UPLOAD_TOO_SLOW' : 'REQUEST_TIMEOUT', {
          headers: { connection: 'close' },
        });
        if (raw.listenerCount('error') > 0) {
          // The body's reader (the multipart parser, Fastify's JSON parser) fails with this error: the
          // route's own clean-up runs (an upload removes its partial file) and the answer is 408.
          raw.emit('error', error);
        } else {
          // Nobody reads the body yet: nothing to clean up, only the connection to end.
          socket.destroy();
        }
      }, windowMs);
      timer.unref();
      raw.once('close', () => clearInterval(timer));
    });
  },
  { name: 'transfer-limits' },
);
