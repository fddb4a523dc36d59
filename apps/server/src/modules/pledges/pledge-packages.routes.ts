import { pledgeEndpoints as endpoints } from '@pledgewatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { AppConfig } from '../../config/env.ts';
import { route } from '../../lib/endpoint-route.ts';
import { attachment } from '../../lib/http.ts';
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
import { importRegistryResults } from './pledge-registry-results.service.ts';
import { fileOf } from './pledge-routes-shared.ts';

/**
 * `/pledges/packages/...`: packages of notifications, their statuses, registration numbers and
 * export. Registered by pledgeRoutes, inside its multipart scope.
 */
export const pledgePackageRoutes: FastifyPluginAsync<{ config: AppConfig }> = async (fastify, { config }) => {
  const writers = [fastify.authenticate, fastify.requireRole('admin', 'analyst')];

  route(fastify, endpoints.packages, { onRequest: fastify.authenticate }, async (request) =>
    findPledgePackages({ db: fastify.db, auth: requireAuth(request), ...request.query }),
  );

  route(fastify, endpoints.createPackage, { onRequest: writers }, async (request) => {
    const created = await createPledgePackage({
      db: fastify.db,
      auth: requireAuth(request),
      name: request.body.name,
      eventIds: request.body.eventIds,
    });
    return created;
  });

  route(fastify, endpoints.package, { onRequest: fastify.authenticate }, async (request) =>
    getPledgePackage({ db: fastify.db, auth: requireAuth(request), packageId: request.params.id }),
  );

  for (const remove of [false, true]) {
    route(
      fastify,
      remove ? endpoints.removePackageEvents : endpoints.addPackageEvents,
      { onRequest: writers },
      async (request) =>
        changePackageEvents({
          db: fastify.db,
          auth: requireAuth(request),
          packageId: request.params.id,
          eventIds: request.body.eventIds,
          remove,
        }),
    );
  }

  route(fastify, endpoints.transitionPackage, { onRequest: writers }, async (request) =>
    transitionPackage({
      db: fastify.db,
      queue: fastify.queue,
      auth: requireAuth(request),
      packageId: request.params.id,
      action: request.body.action,
      comment: request.body.comment,
    }),
  );

  route(fastify, endpoints.saveRegistrationNumbers, { onRequest: writers }, async (request) =>
    saveRegistrationNumbers({
      db: fastify.db,
      auth: requireAuth(request),
      packageId: request.params.id,
      items: request.body.items,
    }),
  );

  route(fastify, endpoints.importRegistrationNumbers, { onRequest: writers }, async (request) => {
    const file = await fileOf(request);
    return importRegistrationNumbers({
      db: fastify.db,
      auth: requireAuth(request),
      config,
      packageId: request.params.id,
      file: file.file,
    });
  });

  route(fastify, endpoints.importRegistryResults, { onRequest: writers }, async (request) => {
    const file = await fileOf(request);
    return importRegistryResults({
      db: fastify.db,
      queue: fastify.queue,
      auth: requireAuth(request),
      packageId: request.params.id,
      fileName: file.filename,
      file: file.file,
    });
  });

  route(fastify, endpoints.exportPackage, { onRequest: fastify.authenticate }, async (request, reply) => {
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
  });
};
