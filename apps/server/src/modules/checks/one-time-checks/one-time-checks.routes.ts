import {
  oneTimeCheckBodySchema,
  oneTimeCheckDocumentBodySchema,
  oneTimeCheckDocumentSchema,
  oneTimeCheckSchema,
  oneTimeChecksQuerySchema,
  oneTimeChecksResponseSchema,
} from '@pledgewatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppConfig } from '../../../config/env.ts';
import { errors } from '../../../lib/http.ts';
import { requireAuth } from '../../../plugins/auth.ts';
import { idParams } from '../checks-routes-shared.ts';
import { getCheckDocument } from './check-document.ts';
import { renderCheckDocumentPdf } from './check-document-pdf.ts';
import { findOneTimeChecks, getOneTimeCheck, runOneTimeCheck } from './one-time-checks.service.ts';

/** `/api/v1/monitoring/one-time-check...`: one-time checks and their document; registered by checksRoutes. */
export const oneTimeCheckRoutes: FastifyPluginAsync<{ config: AppConfig }> = async (fastify, { config }) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const writers = [fastify.authenticate, fastify.requireRole('admin', 'analyst')];

  app.post(
    '/one-time-check',
    {
      onRequest: writers,
      schema: {
        tags: ['checks'],
        summary: 'Разовая проверка VIN или документа по всем источникам сейчас',
        body: oneTimeCheckBodySchema,
        response: { 200: oneTimeCheckSchema, ...errors(401, 403, 422) },
      },
    },
    async (request) =>
      runOneTimeCheck({ db: fastify.db, config, auth: requireAuth(request), body: request.body }),
  );

  app.post(
    '/one-time-check/document-data',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['checks'],
        summary: 'Данные печатного документа разовой проверки',
        body: oneTimeCheckDocumentBodySchema,
        response: { 200: oneTimeCheckDocumentSchema, ...errors(401, 404, 422) },
      },
    },
    async (request) => getCheckDocument({ db: fastify.db, auth: requireAuth(request), id: request.body.id }),
  );

  app.get(
    '/one-time-checks',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['checks'],
        summary: 'История разовых проверок, новые сверху; поиск по VIN/номеру документа и номеру проверки',
        querystring: oneTimeChecksQuerySchema,
        response: { 200: oneTimeChecksResponseSchema, ...errors(401, 422) },
      },
    },
    async (request) => findOneTimeChecks({ db: fastify.db, auth: requireAuth(request), ...request.query }),
  );

  app.get(
    '/one-time-checks/:id',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['checks'],
        summary: 'Разовая проверка с ответами всех источников',
        params: idParams('проверки'),
        response: { 200: oneTimeCheckSchema, ...errors(401, 404, 422) },
      },
    },
    async (request) => getOneTimeCheck({ db: fastify.db, auth: requireAuth(request), id: request.params.id }),
  );

  app.get(
    '/one-time-checks/:id/pdf',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['checks'],
        summary: 'PDF документа разовой проверки (принимает и cookie auth_token для прямой ссылки)',
        params: idParams('проверки'),
        produces: ['application/pdf'],
        response: { 200: z.any().describe('PDF'), ...errors(401, 404, 422) },
      },
    },
    async (request, reply) => {
      const document = await getCheckDocument({
        db: fastify.db,
        auth: requireAuth(request),
        id: request.params.id,
      });
      const pdf = await renderCheckDocumentPdf(document);
      const name = `Проверка ${document.number}.pdf`;
      return reply
        .header('content-type', 'application/pdf')
        .header(
          'content-disposition',
          `attachment; filename="check-${document.number.replace(/[^\w-]/g, '')}.pdf"; filename*=UTF-8''${encodeURIComponent(name)}`,
        )
        .send(pdf);
    },
  );
};
