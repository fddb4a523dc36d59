import {
  ADDITIONAL_METHODS,
  additionalMethodsResponseSchema,
  createNotificationRuleBodySchema,
  deleteNotificationRulesBodySchema,
  deleteNotificationRulesResponseSchema,
  deliveriesQuerySchema,
  deliveriesResponseSchema,
  notificationRuleSchema,
  notificationRulesResponseSchema,
  testNotificationResponseSchema,
  updateNotificationRuleBodySchema,
} from '@pledgewatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppConfig } from '../../config/env.ts';
import { errors } from '../../lib/http.ts';
import { outboundPolicy } from '../../lib/outbound/outbound-request.ts';
import { requireAuth } from '../../plugins/auth.ts';
import {
  createRule,
  deleteRulesByIds,
  findDeliveries,
  findRules,
  sendTestNotification,
  updateRule,
} from './notifications.service.ts';

/** `/api/v1/monitoring/notifications/*`: rules (admins change them, everyone reads) and the delivery log. */
export const notificationRoutes: FastifyPluginAsync<{ config: AppConfig }> = async (fastify, { config }) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const outbound = outboundPolicy(config);
  const adminOnly = [fastify.authenticate, fastify.requireRole('admin')];

  app.get(
    '/settings',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['notifications'],
        summary: 'Правила уведомлений организации (секреты замаскированы)',
        response: { 200: notificationRulesResponseSchema, ...errors(401) },
      },
    },
    async (request) => findRules({ db: fastify.db, auth: requireAuth(request) }),
  );

  app.post(
    '/settings',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['notifications'],
        summary: 'Создать правило уведомлений',
        body: createNotificationRuleBodySchema,
        response: { 201: notificationRuleSchema, ...errors(401, 403, 422) },
      },
    },
    async (request, reply) => {
      const rule = await createRule({
        db: fastify.db,
        auth: requireAuth(request),
        rule: request.body,
        outbound,
      });
      return reply.code(201).send(rule);
    },
  );

  app.patch(
    '/settings',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['notifications'],
        summary: 'Изменить правило (id в теле; пустой секрет — оставить прежний)',
        body: updateNotificationRuleBodySchema,
        response: { 200: notificationRuleSchema, ...errors(401, 403, 404, 422) },
      },
    },
    async (request) =>
      updateRule({ db: fastify.db, auth: requireAuth(request), patch: request.body, outbound }),
  );

  app.delete(
    '/settings',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['notifications'],
        summary: 'Удалить правила (их идентификаторы в теле); журнал доставок сохраняется',
        body: deleteNotificationRulesBodySchema,
        response: { 200: deleteNotificationRulesResponseSchema, ...errors(401, 403, 404, 422) },
      },
    },
    async (request) =>
      deleteRulesByIds({ db: fastify.db, auth: requireAuth(request), ids: request.body.ids }),
  );

  app.post(
    '/settings/:id/test',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['notifications'],
        summary: 'Отправить тестовое уведомление по правилу (через настоящий канал)',
        params: z.object({ id: z.uuid({ error: 'Неверный идентификатор правила' }) }),
        response: { 202: testNotificationResponseSchema, ...errors(401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      const deliveryIds = await sendTestNotification({
        db: fastify.db,
        queue: fastify.queue,
        auth: requireAuth(request),
        ruleId: request.params.id,
      });
      return reply.code(202).send({
        message: 'Тестовое уведомление поставлено в очередь. Результат — в журнале доставок',
        deliveryIds,
      });
    },
  );

  app.get(
    '/methods-additional',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['notifications'],
        summary: 'Способы доставки помимо e-mail и поля, которые им нужны',
        response: { 200: additionalMethodsResponseSchema, ...errors(401) },
      },
    },
    async () => ({ items: [...ADDITIONAL_METHODS] }),
  );

  app.get(
    '/deliveries',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['notifications'],
        summary: 'Журнал доставок: правило, способ, получатель, событие, статус, попытки, ошибка',
        querystring: deliveriesQuerySchema,
        response: { 200: deliveriesResponseSchema, ...errors(401, 422) },
      },
    },
    async (request) => findDeliveries({ db: fastify.db, auth: requireAuth(request), ...request.query }),
  );
};
