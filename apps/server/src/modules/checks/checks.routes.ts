import multipart from '@fastify/multipart';
import {
  cacheInvalidateBodySchema,
  cacheInvalidateResponseSchema,
  checkRunSchema,
  checkRunsQuerySchema,
  checkRunsResponseSchema,
  checkScheduleSchema,
  sourceImportSchema,
  sourceImportsQuerySchema,
  sourceImportsResponseSchema,
  sourcesResponseSchema,
  sourceTypeSchema,
  updateCheckScheduleBodySchema,
} from '@pledgewatch/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppConfig } from '../../config/env.ts';
import { AppError, isAppError } from '../../lib/app-error.ts';
import { errors } from '../../lib/http.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { idParams } from './checks-routes-shared.ts';
import { eventRoutes } from './events/events.routes.ts';
import { oneTimeCheckRoutes } from './one-time-checks/one-time-checks.routes.ts';
import { getCheckSchedule, updateCheckSchedule } from './runs/check-schedule.service.ts';
import { findCheckRuns, getCheckRun, startCheckRun } from './runs/runs.service.ts';
import {
  findSourceImports,
  importDatasetFile,
  invalidateSourceCache,
  listSources,
} from './sources/sources.service.ts';

const DATASET_MAX_BYTES = 512 * 1024 * 1024;

/**
 * `/api/v1/monitoring/*` of the checks engine: sources and their datasets, regular check runs and
 * their schedule, events, and one-time checks with their document.
 */
export const checksRoutes: FastifyPluginAsync<{ config: AppConfig }> = async (fastify, { config }) => {
  await fastify.register(multipart, {
    limits: { fileSize: DATASET_MAX_BYTES, files: 1, fields: 5, parts: 10 },
  });
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const writers = [fastify.authenticate, fastify.requireRole('admin', 'analyst')];
  const staffOnly = async (request: FastifyRequest) => {
    if (!requireAuth(request).isStaff) {
      throw new AppError('CACHE_INVALIDATE_STAFF_ONLY');
    }
  };

  // ─── Sources ───────────────────────────────────────────────────────────────────────────────

  app.get(
    '/sources',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['checks'],
        summary:
          'Источники данных: вид, версия данных, обновление, число записей, p50/p95 ответа, ошибки подряд',
        response: { 200: sourcesResponseSchema, ...errors(401) },
      },
    },
    async () => listSources({ db: fastify.db, config }),
  );

  app.post(
    '/sources/:type/imports',
    {
      onRequest: [fastify.authenticate, fastify.requireStaff],
      schema: {
        tags: ['checks'],
        summary:
          'Загрузить новую версию набора данных источника (multipart, поле file: CSV в UTF-8 или Windows-1251, разделитель «;», «,» или табуляция, либо JSON; столбцы — docs/datasets.md). Новая версия становится активной целиком',
        consumes: ['multipart/form-data'],
        params: z.object({ type: sourceTypeSchema }),
        response: { 201: sourceImportSchema, ...errors(400, 401, 403, 413, 422) },
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
        throw new AppError('BAD_REQUEST', { message: 'Приложите файл набора данных в поле file' });
      }
      if (!file) {
        throw new AppError('BAD_REQUEST', { message: 'Приложите файл набора данных в поле file' });
      }
      const stream = file.file;
      // Streamed into the reader: a dataset file is never held whole in memory.
      async function* content(): AsyncGenerator<Uint8Array> {
        try {
          for await (const chunk of stream) {
            yield chunk as Buffer;
          }
        } catch (error) {
          throw isAppError(error) ? error : new AppError('PAYLOAD_TOO_LARGE');
        }
        if (stream.truncated) {
          throw new AppError('PAYLOAD_TOO_LARGE');
        }
      }
      const created = await importDatasetFile({
        db: fastify.db,
        auth: requireAuth(request),
        type: request.params.type,
        fileName: file.filename,
        content: content(),
      });
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/sources/:type/imports',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['checks'],
        summary: 'История версий набора данных источника, новые сверху',
        params: z.object({ type: sourceTypeSchema }),
        querystring: sourceImportsQuerySchema,
        response: { 200: sourceImportsResponseSchema, ...errors(401, 422) },
      },
    },
    async (request) => findSourceImports({ db: fastify.db, type: request.params.type, ...request.query }),
  );

  app.post(
    '/cache/invalidate',
    {
      // The cache is shared by every organisation: a tenant's admin must not flush it for all of them.
      onRequest: [fastify.authenticate, staffOnly],
      schema: {
        tags: ['checks'],
        summary:
          'Сбросить общий кэш ответов внешнего источника (type — тип источника или all); только сотрудник платформы',
        body: cacheInvalidateBodySchema,
        response: { 200: cacheInvalidateResponseSchema, ...errors(401, 403, 422) },
      },
    },
    async (request) =>
      invalidateSourceCache({ db: fastify.db, auth: requireAuth(request), type: request.body.type }),
  );

  // ─── Check runs ────────────────────────────────────────────────────────────────────────────

  app.post(
    '/check-runs',
    {
      onRequest: writers,
      schema: {
        tags: ['checks'],
        summary:
          'Запустить регулярную проверку всего портфеля сейчас (одна незавершённая проверка на организацию)',
        response: { 202: checkRunSchema, ...errors(401, 403, 409) },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const run = await startCheckRun({
        db: fastify.db,
        config,
        queue: fastify.queue,
        organisationId: auth.organisationId,
        trigger: 'manual',
        userId: auth.userId,
      });
      return reply.code(202).send(run);
    },
  );

  app.get(
    '/check-runs',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['checks'],
        summary: 'Регулярные проверки организации, новые сверху (без хода по источникам)',
        querystring: checkRunsQuerySchema,
        response: { 200: checkRunsResponseSchema, ...errors(401, 422) },
      },
    },
    async (request) => findCheckRuns({ db: fastify.db, auth: requireAuth(request), ...request.query }),
  );

  app.get(
    '/check-runs/:id',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['checks'],
        summary: 'Ход проверки: объекты, части, события и состояние каждого источника',
        params: idParams('проверки'),
        response: { 200: checkRunSchema, ...errors(401, 404, 422) },
      },
    },
    async (request) => getCheckRun({ db: fastify.db, auth: requireAuth(request), runId: request.params.id }),
  );

  app.get(
    '/check-schedule',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['checks'],
        summary: 'Расписание ежедневной проверки (время по Москве)',
        response: { 200: checkScheduleSchema, ...errors(401) },
      },
    },
    async (request) => getCheckSchedule({ db: fastify.db, auth: requireAuth(request) }),
  );

  app.put(
    '/check-schedule',
    {
      onRequest: [fastify.authenticate, fastify.requireRole('admin')],
      schema: {
        tags: ['checks'],
        summary: 'Задать расписание ежедневной проверки (администратор)',
        body: updateCheckScheduleBodySchema,
        response: { 200: checkScheduleSchema, ...errors(401, 403, 422) },
      },
    },
    async (request) =>
      updateCheckSchedule({ db: fastify.db, auth: requireAuth(request), schedule: request.body }),
  );

  await fastify.register(eventRoutes);
  await fastify.register(oneTimeCheckRoutes, { config });
};
