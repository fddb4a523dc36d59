import { ADDITIONAL_METHODS, notificationEndpoints as endpoints } from '@pledgewatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { AppConfig } from '../../config/env.ts';
import { route } from '../../lib/endpoint-route.ts';
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
  const outbound = outboundPolicy(config);
  const signedIn = { onRequest: fastify.authenticate };
  const adminOnly = { onRequest: [fastify.authenticate, fastify.requireRole('admin')] };

  route(fastify, endpoints.rules, signedIn, async (request) =>
    findRules({ db: fastify.db, auth: requireAuth(request) }),
  );

  route(fastify, endpoints.createRule, adminOnly, async (request) =>
    createRule({ db: fastify.db, auth: requireAuth(request), rule: request.body, outbound }),
  );

  route(fastify, endpoints.updateRule, adminOnly, async (request) =>
    updateRule({ db: fastify.db, auth: requireAuth(request), patch: request.body, outbound }),
  );

  route(fastify, endpoints.deleteRules, adminOnly, async (request) =>
    deleteRulesByIds({ db: fastify.db, auth: requireAuth(request), ids: request.body.ids }),
  );

  route(fastify, endpoints.testRule, adminOnly, async (request) => ({
    message: 'Тестовое уведомление поставлено в очередь. Результат — в журнале доставок',
    deliveryIds: await sendTestNotification({
      db: fastify.db,
      queue: fastify.queue,
      auth: requireAuth(request),
      ruleId: request.params.id,
    }),
  }));

  route(fastify, endpoints.additionalMethods, signedIn, async () => ({ items: [...ADDITIONAL_METHODS] }));

  route(fastify, endpoints.deliveries, signedIn, async (request) =>
    findDeliveries({ db: fastify.db, auth: requireAuth(request), ...request.query }),
  );
};
