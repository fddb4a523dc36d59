import { monitoringEndpoints } from '@pledgewatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../lib/endpoint-route.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { getStatistics } from './statistics.service.ts';

/** `/api/v1/monitoring/statistics`: series for the charts of /monitoring/statistics. */
export const statisticsRoutes: FastifyPluginAsync = async (fastify) => {
  route(fastify, monitoringEndpoints.statistics, { onRequest: fastify.authenticate }, async (request) =>
    getStatistics({ db: fastify.db, auth: requireAuth(request), query: request.body }),
  );
};
