import multipart from '@fastify/multipart';
import {
  createPledgeEventResponseSchema,
  pledgeEventDetailSchema,
  pledgeEventInputSchema,
  pledgeEventsQuerySchema,
  pledgeEventsResponseSchema,
  uploadFileQuerySchema,
  uploadSchema,
} from '@pledgewatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppConfig } from '../../config/env.ts';
import { attachment, errors } from '../../lib/http.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { contentTypeOf, createUpload, uploadTemplateFile } from '../uploads/index.ts';
import { pledgePackageRoutes } from './pledge-packages.routes.ts';
import { fileOf, fileResponse, idParams } from './pledge-routes-shared.ts';
import {
  correctPledgeEvent,
  createPledgeEvent,
  findPledgeEvents,
  getPledgeEvent,
} from './pledges.service.ts';

const uploadEventsQuerySchema = z.object({
  autoConfirm: z
    .enum(['true', 'false'], { error: 'autoConfirm: true или false' })
    .default('false')
    .transform((value) => value === 'true')
    .describe('true — внести события сразу после проверки, без подтверждения'),
});

/**
 * The pledge registry: `POST /monitoring/regular-check/upload-events` (the seed's call: a file of
 * pledge events becomes an upload of kind pledge_events) and `/pledges/...` (hand entry, the events
 * registry, packages). Registered under `/api/v1` without a prefix of its own.
 */
export const pledgeRoutes: FastifyPluginAsync<{ config: AppConfig }> = async (fastify, { config }) => {
  await fastify.register(multipart, {
    limits: { fileSize: config.uploadMaxBytes, files: 1, fields: 10, fieldSize: 1024, parts: 20 },
  });
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const writers = [fastify.authenticate, fastify.requireRole('admin', 'analyst')];

  app.post(
    '/monitoring/regular-check/upload-events',
    {
      onRequest: writers,
      schema: {
        tags: ['pledges'],
        summary:
          'Загрузить файл событий залога (CSV/XLSX, multipart, поле file). Ответ 202: загрузка вида pledge_events, проверка идёт в фоне; далее — как у загрузок портфеля (/monitoring/uploads/{id}, confirm, cancel, errors)',
        consumes: ['multipart/form-data'],
        querystring: uploadEventsQuerySchema,
        response: { 202: uploadSchema, ...errors(400, 401, 403, 413, 422) },
      },
    },
    async (request, reply) => {
      const file = await fileOf(request);
      const upload = await createUpload({
        db: fastify.db,
        queue: fastify.queue,
        config,
        auth: requireAuth(request),
        kind: 'pledge_events',
        autoConfirm: request.query.autoConfirm,
        file: { fileName: file.filename, stream: file.file },
      });
      return reply.code(202).send(upload);
    },
  );

  app.get(
    '/pledges/upload-template',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['pledges'],
        summary:
          'Шаблон файла событий залога (CSV или XLSX): строка на каждое ТС, поля уведомления повторяются',
        querystring: uploadFileQuerySchema,
        produces: ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
        response: { 200: fileResponse, ...errors(401, 422) },
      },
    },
    async (request, reply) => {
      const file = uploadTemplateFile({ kind: 'pledge_events', format: request.query.format });
      return reply
        .header('content-type', contentTypeOf(request.query.format))
        .header('content-disposition', attachment(`шаблон-событий-залога.${request.query.format}`))
        .send(file.body);
    },
  );

  app.post(
    '/pledges/events',
    {
      onRequest: writers,
      schema: {
        tags: ['pledges'],
        summary:
          'Внести одно уведомление о залоге вручную (возникновение, изменение, исключение). Исключение — только администратор',
        body: pledgeEventInputSchema,
        response: { 201: createPledgeEventResponseSchema, ...errors(401, 403, 409, 422) },
      },
    },
    async (request, reply) => {
      const result = await createPledgeEvent({
        db: fastify.db,
        auth: requireAuth(request),
        event: request.body,
      });
      return reply.code(201).send(result);
    },
  );

  app.get(
    '/pledges/events',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['pledges'],
        summary:
          'Реестр событий залога организации: постранично, с фильтрами, пакетом и предупреждением о сроке',
        querystring: pledgeEventsQuerySchema,
        response: { 200: pledgeEventsResponseSchema, ...errors(401, 422) },
      },
    },
    async (request) => findPledgeEvents({ db: fastify.db, auth: requireAuth(request), query: request.query }),
  );

  app.get(
    '/pledges/events/:id',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['pledges'],
        summary: 'Событие реестра с историей залога и историей пакета',
        params: idParams,
        response: { 200: pledgeEventDetailSchema, ...errors(401, 404, 422) },
      },
    },
    async (request) =>
      getPledgeEvent({ db: fastify.db, auth: requireAuth(request), eventId: request.params.id }),
  );

  app.put(
    '/pledges/events/:id',
    {
      onRequest: writers,
      schema: {
        tags: ['pledges'],
        summary:
          'Исправить уведомление без пакета или с отказом реестра (вид не меняется, залог тот же); после исправления его можно включить в новый пакет',
        params: idParams,
        body: pledgeEventInputSchema,
        response: { 200: createPledgeEventResponseSchema, ...errors(401, 403, 404, 409, 422) },
      },
    },
    async (request) =>
      correctPledgeEvent({
        db: fastify.db,
        auth: requireAuth(request),
        eventId: request.params.id,
        event: request.body,
      }),
  );

  await fastify.register(pledgePackageRoutes, { config });
};
