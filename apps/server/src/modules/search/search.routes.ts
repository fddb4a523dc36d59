import { searchEndpoints } from '@pledgewatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../lib/endpoint-route.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { search } from './search.service.ts';

/** `/api/v1/search`: the header's one search box (every role reads it). */
export const searchRoutes: FastifyPluginAsync = async (fastify) => {
  route(fastify, searchEndpoints.search, { onRequest: fastify.authenticate }, async (request) =>
    search({ db: fastify.db, auth: requireAuth(request), ...request.query }),
  );
};
