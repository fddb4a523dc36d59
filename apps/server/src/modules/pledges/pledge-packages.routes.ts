import {
  createPledgePackageBodySchema,
  packageEventsBodySchema,
  packageExportQuerySchema,
  packageTransitionBodySchema,
  pledgePackageDetailSchema,
  pledgePackagesQuerySchema,
  pledgePackagesResponseSchema,
  registrationNumbersBodySchema,
  registrationNumbersResponseSchema,
} from '@pledgewatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppConfig } from '../../config/env.ts';
import { attachment, errors } from '../../lib/http.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { exportPackage } from './pledge-package-export.service.ts';
import { importRegistrationNumbers, saveRegistrationNumbers } from './pledge-package-numbers.service.ts';
import {
  changePackageEvents,
  createPledgePackage,
  findPledgePackages,
  getPledgePackage,
  transitionPackage,
} from './pledge-packages.service.ts';
import { fileOf, fileResponse, idParams } from './pledge-routes-shared.ts';

/**
 * `/pledges/packages/...`: packages of notifications, their statuses, registration numbers and
 * export. Registered by pledgeRoutes, inside its multipart scope.
 */
export const pledgePackageRoutes: FastifyPluginAsync<{ config: AppConfig }> = async (fastify, { config }) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const writers = [fastify.authenticate, fastify.requireRole('admin', 'analyst')];

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
        queue: fastify.queue,
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
