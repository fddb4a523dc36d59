import { savedViewEndpoints } from '@pledgewatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../lib/endpoint-route.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { createSavedView, deleteSavedView, findSavedViews, updateSavedView } from './saved-views.service.ts';

/** `/api/v1/saved-views`: every role keeps its own views; nobody reads another user's. */
export const savedViewRoutes: FastifyPluginAsync = async (fastify) => {
  const signedIn = { onRequest: fastify.authenticate };

  route(fastify, savedViewEndpoints.list, signedIn, async (request) =>
    findSavedViews({ db: fastify.db, auth: requireAuth(request), list: request.query.list }),
  );

  route(fastify, savedViewEndpoints.create, signedIn, async (request) =>
    createSavedView({ db: fastify.db, auth: requireAuth(request), body: request.body }),
  );

  route(fastify, savedViewEndpoints.update, signedIn, async (request) =>
    updateSavedView({
      db: fastify.db,
      auth: requireAuth(request),
      id: request.params.id,
      body: request.body,
    }),
  );

  route(fastify, savedViewEndpoints.remove, signedIn, async (request) =>
    deleteSavedView({ db: fastify.db, auth: requireAuth(request), id: request.params.id }),
  );
};
