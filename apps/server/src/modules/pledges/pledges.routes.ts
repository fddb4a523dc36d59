import multipart from '@fastify/multipart';
import { pledgeEndpoints as endpoints } from '@pledgewatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { AppConfig } from '../../config/env.ts';
import { route } from '../../lib/endpoint-route.ts';
import { attachment } from '../../lib/http.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { contentTypeOf, createUpload, uploadTemplateFile } from '../uploads/index.ts';
import { pledgePackageRoutes } from './pledge-packages.routes.ts';
import { settlePackage } from './pledge-packages.service.ts';
import { fileOf } from './pledge-routes-shared.ts';
import {
  correctPledgeEvent,
  createPledgeEvent,
  findPledgeEvents,
  getPledgeEvent,
} from './pledges.service.ts';

/**
 * The pledge registry: `POST /monitoring/regular-check/upload-events` (the seed's call: a file of
 * pledge events becomes an upload of kind pledge_events) and `/pledges/...` (hand entry, the events
 * registry, packages). Registered under `/api/v1` without a prefix of its own.
 */
export const pledgeRoutes: FastifyPluginAsync<{ config: AppConfig }> = async (fastify, { config }) => {
  await fastify.register(multipart, {
    limits: { fileSize: config.uploadMaxBytes, files: 1, fields: 10, fieldSize: 1024, parts: 20 },
  });
  const writers = [fastify.authenticate, fastify.requireRole('admin', 'analyst')];

  route(fastify, endpoints.uploadEvents, { onRequest: writers }, async (request) => {
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
    return upload;
  });

  route(fastify, endpoints.uploadTemplate, { onRequest: fastify.authenticate }, async (request, reply) => {
    const file = uploadTemplateFile({ kind: 'pledge_events', format: request.query.format });
    return reply
      .header('content-type', contentTypeOf(request.query.format))
      .header('content-disposition', attachment(`шаблон-событий-залога.${request.query.format}`))
      .send(file.body);
  });

  route(fastify, endpoints.createEvent, { onRequest: writers }, async (request) => {
    const result = await createPledgeEvent({
      db: fastify.db,
      auth: requireAuth(request),
      event: request.body,
    });
    return result;
  });

  route(fastify, endpoints.events, { onRequest: fastify.authenticate }, async (request) =>
    findPledgeEvents({ db: fastify.db, auth: requireAuth(request), query: request.query }),
  );

  route(fastify, endpoints.event, { onRequest: fastify.authenticate }, async (request) =>
    getPledgeEvent({ db: fastify.db, auth: requireAuth(request), eventId: request.params.id }),
  );

  route(fastify, endpoints.correctEvent, { onRequest: writers }, async (request) => {
    const auth = requireAuth(request);
    return correctPledgeEvent({
      db: fastify.db,
      auth,
      eventId: request.params.id,
      event: request.body,
      settlePackage: (tx, packageId) => settlePackage(tx, fastify.queue, auth, packageId),
    });
  });

  await fastify.register(pledgePackageRoutes, { config });
};
