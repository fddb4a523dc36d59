import multipart from '@fastify/multipart';
import {
  createUploadQuerySchema,
  uploadDetailSchema,
  uploadErrorRowsQuerySchema,
  uploadErrorRowsResponseSchema,
  uploadFileQuerySchema,
  uploadSchema,
  uploadsQuerySchema,
  uploadsResponseSchema,
  uploadTemplateQuerySchema,
} from '@pledgewatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppConfig } from '../../config/env.ts';
import { AppError, isAppError } from '../../lib/app-error.ts';
import { attachment, errors } from '../../lib/http.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { contentTypeOf } from './upload-files.ts';
import {
  cancelUpload,
  confirmUpload,
  createUpload,
  findUploadErrorRows,
  findUploads,
  getUpload,
  uploadErrorsFile,
  uploadTemplateFile,
} from './uploads.service.ts';

/** Files are streamed as they are; the schema only documents them. */
const fileResponse = z.any().describe('Файл CSV (UTF-8 с BOM, разделитель «;») или XLSX');
const uploadParams = z.object({ id: z.uuid({ error: 'Неверный идентификатор загрузки' }) });

/** `/api/v1/monitoring/uploads`: file uploads of the portfolio, their preview, confirmation and history. */
export const uploadRoutes: FastifyPluginAsync<{ config: AppConfig }> = async (fastify, { config }) => {
  await fastify.register(multipart, {
    limits: { fileSize: config.uploadMaxBytes, files: 1, fields: 10, fieldSize: 1024, parts: 20 },
  });
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const writers = [fastify.authenticate, fastify.requireRole('admin', 'analyst')];

  app.post(
    '/',
    {
      onRequest: writers,
      schema: {
        tags: ['uploads'],
        summary:
          'Загрузить файл CSV или XLSX (multipart, поле file). Ответ 202: загрузка принята, проверка идёт в фоне',
        consumes: ['multipart/form-data'],
        querystring: createUploadQuerySchema,
        response: { 202: uploadSchema, ...errors(400, 401, 403, 413, 422) },
      },
    },
    async (request, reply) => {
      let file: Awaited<ReturnType<typeof request.file>>;
      try {
        file = request.isMultipart() ? await request.file() : undefined;
      } catch (error) {
        if (isAppError(error)) {
          throw error; // the edge's refusal (input-guard), e.g. a NUL in the file name
        }
        throw new AppError('UPLOAD_NO_FILE');
      }
      if (!file) {
        throw new AppError('UPLOAD_NO_FILE');
      }
      const upload = await createUpload({
        db: fastify.db,
        queue: fastify.queue,
        config,
        auth: requireAuth(request),
        kind: request.query.kind,
        autoConfirm: request.query.autoConfirm,
        file: { fileName: file.filename, stream: file.file },
      });
      return reply.code(202).send(upload);
    },
  );

  app.get(
    '/',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['uploads'],
        summary: 'История загрузок: новые сверху, со статусом, прогрессом и счётчиками',
        querystring: uploadsQuerySchema,
        response: { 200: uploadsResponseSchema, ...errors(401, 422) },
      },
    },
    async (request) => findUploads({ db: fastify.db, auth: requireAuth(request), ...request.query }),
  );

  app.get(
    '/template',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['uploads'],
        summary: 'Шаблон файла загрузки (CSV или XLSX) с русскими заголовками и примерами строк',
        querystring: uploadTemplateQuerySchema,
        produces: ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
        response: { 200: fileResponse, ...errors(401, 422) },
      },
    },
    async (request, reply) => {
      const file = uploadTemplateFile(request.query);
      return reply
        .header('content-type', contentTypeOf(request.query.format))
        .header('content-disposition', attachment(file.fileName))
        .send(file.body);
    },
  );

  app.get(
    '/:id',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['uploads'],
        summary: 'Загрузка: статус, прогресс, счётчики, распознанные столбцы, предпросмотр и первые ошибки',
        params: uploadParams,
        response: { 200: uploadDetailSchema, ...errors(401, 404, 422) },
      },
    },
    async (request) => getUpload({ db: fastify.db, auth: requireAuth(request), uploadId: request.params.id }),
  );

  app.get(
    '/:id/error-rows',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['uploads'],
        summary: 'Отклонённые строки загрузки постранично',
        params: uploadParams,
        querystring: uploadErrorRowsQuerySchema,
        response: { 200: uploadErrorRowsResponseSchema, ...errors(401, 404, 422) },
      },
    },
    async (request) =>
      findUploadErrorRows({
        db: fastify.db,
        auth: requireAuth(request),
        uploadId: request.params.id,
        ...request.query,
      }),
  );

  app.get(
    '/:id/errors',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['uploads'],
        summary: 'Файл отклонённых строк: «Строка», столбцы шаблона и «Ошибка» — исправить и загрузить снова',
        params: uploadParams,
        querystring: uploadFileQuerySchema,
        produces: ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
        response: { 200: fileResponse, ...errors(401, 404, 422) },
      },
    },
    async (request, reply) => {
      const file = await uploadErrorsFile({
        db: fastify.db,
        auth: requireAuth(request),
        uploadId: request.params.id,
        format: request.query.format,
      });
      return reply
        .header('content-type', contentTypeOf(request.query.format))
        .header('content-disposition', attachment(file.fileName))
        .send(file.body);
    },
  );

  app.post(
    '/:id/confirm',
    {
      onRequest: writers,
      schema: {
        tags: ['uploads'],
        summary: 'Подтвердить проверенную загрузку: принятые строки добавляются в портфель',
        params: uploadParams,
        response: { 200: uploadSchema, ...errors(401, 403, 404, 409, 422) },
      },
    },
    async (request) =>
      confirmUpload({
        db: fastify.db,
        queue: fastify.queue,
        auth: requireAuth(request),
        uploadId: request.params.id,
      }),
  );

  app.post(
    '/:id/cancel',
    {
      onRequest: writers,
      schema: {
        tags: ['uploads'],
        summary: 'Отменить проверенную, но не подтверждённую загрузку',
        params: uploadParams,
        response: { 200: uploadSchema, ...errors(401, 403, 404, 409, 422) },
      },
    },
    async (request) =>
      cancelUpload({ db: fastify.db, config, auth: requireAuth(request), uploadId: request.params.id }),
  );
};
