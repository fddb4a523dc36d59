import { monitoringEndpoints } from '@pledgewatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../lib/endpoint-route.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { getDashboard } from './dashboard.service.ts';

/** `/api/v1/monitoring/dashboard`: the counts of the home screen. */
export const dashboardRoutes: FastifyPluginAsync = async (fastify) => {
  route(fastify, monitoringEndpoints.dashboard, { onRequest: fastify.authenticate }, async (request) =>
    getDashboard({ db: fastify.db, auth: requireAuth(request) }),
  );
};
