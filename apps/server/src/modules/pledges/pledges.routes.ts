import multipart from '@fastify/multipart';
import {
  createPledgeEventResponseSchema,
  createPledgePackageBodySchema,
  packageEventsBodySchema,
  packageExportQuerySchema,
  packageTransitionBodySchema,
  pledgeEventDetailSchema,
  pledgeEventInputSchema,
  pledgeEventsQuerySchema,
  pledgeEventsResponseSchema,
  pledgePackageDetailSchema,
  pledgePackagesQuerySchema,
  pledgePackagesResponseSchema,
  registrationNumbersBodySchema,
  registrationNumbersResponseSchema,
  uploadFileQuerySchema,
  uploadSchema,
} from '@pledgewatch/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppConfig } from '../../config/env.ts';
import { AppError, isAppError } from '../../lib/app-error.ts';
import { errors } from '../../lib/http.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { attachment, contentTypeOf } from '../uploads/upload-files.ts';
import { createUpload, uploadTemplateFile } from '../uploads/uploads.service.ts';
import {
  changePackageEvents,
  createPledgePackage,
  exportPackage,
  findPledgePackages,
  getPledgePackage,
  importRegistrationNumbers,
  saveRegistrationNumbers,
  transitionPackage,
} from './pledge-packages.service.ts';
import { createPledgeEvent, findPledgeEvents, getPledgeEvent } from './pledges.service.ts';

const idParams = z.object({ id: z.uuid({ error: 'Неверный идентификатор' }) });
const fileResponse = z.any().describe('Файл');
const uploadEventsQuerySchema = z.object({
  autoConfirm: z
    .enum(['true', 'false'], { error: 'autoConfirm: true или false' })
    .default('false')
    .transform((value) => value === 'true')
    .describe('true — внести события сразу после проверки, без подтверждения'),
});

async function fileOf(request: FastifyRequest) {
  try {
    const file = request.isMultipart() ? await request.file() : undefined;
    if (file) {
      return file;
    }
  } catch (error) {
    if (isAppError(error)) {
      throw error; // the edge's refusal (input-guard), e.g. a NUL in the file name
    }
    // a broken multipart body is the same as no file for the user
  }
  throw new AppError('UPLOAD_NO_FILE');
}

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

  app.get(
    '/pledges/packages',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['pledges'],
        summary: 'Пакеты уведомлений, новые сверху',
        querystring: pledgePackagesQuerySchema,
        response: { 200: pledgePackagesResponseSchema, ...errors(401, 422) },
      },
    },
    async (request) => findPledgePackages({ db: fastify.db, auth: requireAuth(request), ...request.query }),
  );

  app.post(
    '/pledges/packages',
    {
      onRequest: writers,
      schema: {
        tags: ['pledges'],
        summary: 'Создать пакет из выбранных событий (события не должны быть в другом пакете)',
        body: createPledgePackageBodySchema,
        response: { 201: pledgePackageDetailSchema, ...errors(401, 403, 409, 422) },
      },
    },
    async (request, reply) => {
      const created = await createPledgePackage({
        db: fastify.db,
        auth: requireAuth(request),
        name: request.body.name,
        eventIds: request.body.eventIds,
      });
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/pledges/packages/:id',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['pledges'],
        summary: 'Пакет: статус, счётчики, история, может ли текущий пользователь его одобрить',
        params: idParams,
        response: { 200: pledgePackageDetailSchema, ...errors(401, 404, 422) },
      },
    },
    async (request) =>
      getPledgePackage({ db: fastify.db, auth: requireAuth(request), packageId: request.params.id }),
  );

  for (const remove of [false, true]) {
    app.route({
      method: remove ? 'DELETE' : 'POST',
      url: '/pledges/packages/:id/events',
      onRequest: writers,
      schema: {
        tags: ['pledges'],
        summary: remove ? 'Убрать события из черновика пакета' : 'Добавить события в черновик пакета',
        params: idParams,
        body: packageEventsBodySchema,
        response: { 200: pledgePackageDetailSchema, ...errors(401, 403, 404, 409, 422) },
      },
      handler: async (request) =>
        changePackageEvents({
          db: fastify.db,
          auth: requireAuth(request),
          packageId: request.params.id,
          eventIds: request.body.eventIds,
          remove,
        }),
    });
  }

  app.post(
    '/pledges/packages/:id/transition',
    {
      onRequest: writers,
      schema: {
        tags: ['pledges'],
        summary:
          'Сменить статус пакета: approve (draft → ready, другим сотрудником), return, send, register, reject (с причиной)',
        params: idParams,
        body: packageTransitionBodySchema,
        response: { 200: pledgePackageDetailSchema, ...errors(401, 403, 404, 409, 422) },
      },
    },
    async (request) =>
      transitionPackage({
        db: fastify.db,
        auth: requireAuth(request),
        packageId: request.params.id,
        action: request.body.action,
        comment: request.body.comment,
      }),
  );

  app.put(
    '/pledges/packages/:id/registration-numbers',
    {
      onRequest: writers,
      schema: {
        tags: ['pledges'],
        summary:
          'Внести присвоенные реестром номера уведомлений пакета (отправленного или зарегистрированного)',
        params: idParams,
        body: registrationNumbersBodySchema,
        response: { 200: registrationNumbersResponseSchema, ...errors(401, 403, 404, 409, 422) },
      },
    },
    async (request) =>
      saveRegistrationNumbers({
        db: fastify.db,
        auth: requireAuth(request),
        packageId: request.params.id,
        items: request.body.items,
      }),
  );

  app.post(
    '/pledges/packages/:id/registration-numbers/file',
    {
      onRequest: writers,
      schema: {
        tags: ['pledges'],
        summary:
          'Загрузить номера файлом (CSV/XLSX со столбцами «ID уведомления» и «Присвоенный номер», как в выгрузке XLSX)',
        consumes: ['multipart/form-data'],
        params: idParams,
        response: { 200: registrationNumbersResponseSchema, ...errors(400, 401, 403, 404, 409, 413, 422) },
      },
    },
    async (request) => {
      const file = await fileOf(request);
      return importRegistrationNumbers({
        db: fastify.db,
        auth: requireAuth(request),
        config,
        packageId: request.params.id,
        file: file.file,
      });
    },
  );

  app.get(
    '/pledges/packages/:id/export',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['pledges'],
        summary:
          'Выгрузить пакет: json — уведомления для отправки (docs/pledges.md), xlsx — таблица для людей',
        params: idParams,
        querystring: packageExportQuerySchema,
        produces: ['application/json', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
        response: { 200: fileResponse, ...errors(401, 404, 422) },
      },
    },
    async (request, reply) => {
      const file = await exportPackage({
        db: fastify.db,
        auth: requireAuth(request),
        packageId: request.params.id,
        format: request.query.format,
      });
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', attachment(file.fileName))
        .send(file.body);
    },
  );
};
