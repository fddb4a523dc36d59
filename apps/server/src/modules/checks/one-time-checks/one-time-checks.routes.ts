import { checkEndpoints as endpoints } from '@pledgewatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { AppConfig } from '../../../config/env.ts';
import { route } from '../../../lib/endpoint-route.ts';
import { attachment } from '../../../lib/http.ts';
import { requireAuth } from '../../../plugins/auth.ts';
import { getCheckDocument } from './check-document.ts';
import { renderCheckDocumentPdf } from './check-document-pdf.ts';
import { findOneTimeChecks, getOneTimeCheck, runOneTimeCheck } from './one-time-checks.service.ts';

/** `/api/v1/monitoring/one-time-check...`: one-time checks and their document; registered by checksRoutes. */
export const oneTimeCheckRoutes: FastifyPluginAsync<{ config: AppConfig }> = async (fastify, { config }) => {
  const writers = [fastify.authenticate, fastify.requireRole('admin', 'analyst')];

  route(fastify, endpoints.oneTimeCheck, { onRequest: writers }, async (request) =>
    runOneTimeCheck({ db: fastify.db, config, auth: requireAuth(request), body: request.body }),
  );

  route(fastify, endpoints.oneTimeCheckDocument, { onRequest: fastify.authenticate }, async (request) =>
    getCheckDocument({ db: fastify.db, auth: requireAuth(request), id: request.body.id }),
  );

  route(fastify, endpoints.oneTimeChecks, { onRequest: fastify.authenticate }, async (request) =>
    findOneTimeChecks({ db: fastify.db, auth: requireAuth(request), ...request.query }),
  );

  route(fastify, endpoints.oneTimeCheckById, { onRequest: fastify.authenticate }, async (request) =>
    getOneTimeCheck({ db: fastify.db, auth: requireAuth(request), id: request.params.id }),
  );

  route(fastify, endpoints.oneTimeCheckPdf, { onRequest: fastify.authenticate }, async (request, reply) => {
    const document = await getCheckDocument({
      db: fastify.db,
      auth: requireAuth(request),
      id: request.params.id,
    });
    const pdf = await renderCheckDocumentPdf(document);
    const name = `Проверка ${document.number}.pdf`;
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', attachment(name))
      .send(pdf);
  });
};
