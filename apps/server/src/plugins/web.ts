import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { isKnownWebPath } from '@pledgewatch/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error.ts';

/** The theme the browser resolved last time (cookie `serverTheme`), so the first paint has the right colours. */
export function applyServerTheme(html: string, cookieHeader: string | undefined): string {
  const match = /(?:^|;\s*)serverTheme=(light|dark)/.exec(cookieHeader ?? '');
  const theme = match?.[1] ?? 'light';
  return html.replace(/<html([^>]*)>/, (_tag, attributes: string) => {
    const rest = attributes.replace(/\s+data-theme="[^"]*"/, '');
    return `<html${rest} data-theme="${theme}">`;
  });
}

/**
 * Serves the built web app. Unknown browser paths still get the app shell (which shows its
 * page-not-found screen) but with status 404; unknown `/api/` paths get the JSON error.
 */
export default fp<{ webDist: string }>(
  async (fastify, { webDist }) => {
    const indexPath = path.join(webDist, 'index.html');
    const indexHtml = existsSync(indexPath) ? readFileSync(indexPath, 'utf8') : null;
    if (indexHtml) {
      await fastify.register(fastifyStatic, {
        root: webDist,
        index: false,
        wildcard: true,
        // The web build writes .br and .gz beside each asset; they are sent as they are.
        preCompressed: true,
        // dist/.vite/manifest.json maps source files to chunks: for tests and tools, not for browsers.
        dotfiles: 'ignore',
        setHeaders: (reply, filePath) => {
          if (filePath.includes(`${path.sep}assets${path.sep}`)) {
            reply.header('cache-control', 'public, max-age=31536000, immutable');
          }
        },
      });
    } else {
      fastify.log.warn({ webDist }, 'web app is not built: run `npm run build`');
    }

    const sendShell = (request: FastifyRequest, reply: FastifyReply, status: number) =>
      reply
        .code(status)
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(applyServerTheme(indexHtml ?? '', request.headers.cookie));

    if (indexHtml) {
      // The static handler treats `/` as a directory; the shell answers it instead.
      fastify.get('/', { schema: { hide: true } }, (request, reply) => sendShell(request, reply, 200));
    }

    fastify.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
      const pathname = request.url.split('?')[0] ?? '/';
      if (pathname === '/api' || pathname.startsWith('/api/')) {
        throw new AppError('ROUTE_NOT_FOUND', {
          message: `Такого адреса API нет: ${request.method} ${pathname}`,
        });
      }
      const wantsPage = request.method === 'GET' || request.method === 'HEAD';
      const isAsset = /\.[a-z0-9]+$/i.test(pathname);
      if (!indexHtml || !wantsPage || isAsset) {
        return reply.code(404).type('text/plain; charset=utf-8').send(`Не найдено: ${pathname}`);
      }
      return sendShell(request, reply, isKnownWebPath(pathname) ? 200 : 404);
    });
  },
  { name: 'web' },
);
