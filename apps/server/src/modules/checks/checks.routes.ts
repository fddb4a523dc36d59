import multipart from '@fastify/multipart';
import { checkEndpoints as endpoints, type SourceType } from '@pledgewatch/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { AppConfig } from '../../config/env.ts';
import { AppError, isAppError } from '../../lib/app-error.ts';
import { route } from '../../lib/endpoint-route.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { eventRoutes } from './events/events.routes.ts';
import { oneTimeCheckRoutes } from './one-time-checks/one-time-checks.routes.ts';
import { receiveSourceFile } from './passport-list/passport-list.service.ts';
import { getCheckSchedule, updateCheckSchedule } from './runs/check-schedule.service.ts';
import { findCheckRuns, getCheckRun, startCheckRun } from './runs/runs.service.ts';
import { findSourceImports, invalidateSourceCache, listSources } from './sources/sources.service.ts';

/**
 * `/api/v1/monitoring/*` of the checks engine: sources and their datasets, regular check runs and
 * their schedule, events, and one-time checks with their document.
 */
export const checksRoutes: FastifyPluginAsync<{ config: AppConfig }> = async (fastify, { config }) => {
  await fastify.register(multipart, {
    limits: { fileSize: config.sourceImportMaxBytes, files: 1, fields: 5, parts: 10 },
  });
  const writers = [fastify.authenticate, fastify.requireRole('admin', 'analyst')];
  const staffOnly = async (request: FastifyRequest) => {
    if (!requireAuth(request).isStaff) {
      throw new AppError('CACHE_INVALIDATE_STAFF_ONLY');
    }
  };

  // ─── Sources ───────────────────────────────────────────────────────────────────────────────

  route(fastify, endpoints.sources, { onRequest: fastify.authenticate }, async (request) =>
    listSources({ db: fastify.db, config, auth: requireAuth(request) }),
  );

  /** The multipart request's `file` part, or a Russian refusal. */
  const requestFile = async (request: FastifyRequest, maxBytes: number) => {
    let file: Awaited<ReturnType<typeof request.file>>;
    try {
      file = request.isMultipart() ? await request.file({ limits: { fileSize: maxBytes } }) : undefined;
    } catch (error) {
      if (isAppError(error)) {
        throw error; // the edge's refusal (input-guard), e.g. a NUL in the file name
      }
      throw new AppError('BAD_REQUEST', { message: 'Приложите файл набора данных в поле file' });
    }
    if (!file) {
      throw new AppError('BAD_REQUEST', { message: 'Приложите файл набора данных в поле file' });
    }
    return file;
  };

  // Every source's file is received to disk and imported in the background (202); the MVD list's
  // own path wins over :type.
  for (const endpoint of [endpoints.importPassportList, endpoints.importSource]) {
    route(fastify, endpoint, { onRequest: [fastify.authenticate, fastify.requireStaff] }, async (request) => {
      const file = await requestFile(request, config.sourceImportMaxBytes);
      const params = request.params as { type?: SourceType };
      return receiveSourceFile({
        db: fastify.db,
        queue: fastify.queue,
        config,
        auth: requireAuth(request),
        type: params.type ?? 'passport',
        file: { fileName: file.filename, stream: file.file },
      });
    });
  }

  route(fastify, endpoints.sourceImports, { onRequest: fastify.authenticate }, async (request) =>
    findSourceImports({ db: fastify.db, type: request.params.type, ...request.query }),
  );

  route(
    fastify,
    endpoints.invalidateCache,
    // The cache is shared by every organisation: a tenant's admin must not flush it for all of them.
    { onRequest: [fastify.authenticate, staffOnly] },
    async (request) =>
      invalidateSourceCache({ db: fastify.db, auth: requireAuth(request), type: request.body.type }),
  );

  // ─── Check runs ────────────────────────────────────────────────────────────────────────────

  route(fastify, endpoints.startRun, { onRequest: writers }, async (request) => {
    const auth = requireAuth(request);
    const run = await startCheckRun({
      db: fastify.db,
      config,
      queue: fastify.queue,
      organisationId: auth.organisationId,
      trigger: 'manual',
      userId: auth.userId,
    });
    return run;
  });

  route(fastify, endpoints.runs, { onRequest: fastify.authenticate }, async (request) =>
    findCheckRuns({ db: fastify.db, auth: requireAuth(request), ...request.query }),
  );

  route(fastify, endpoints.run, { onRequest: fastify.authenticate }, async (request) =>
    getCheckRun({ db: fastify.db, auth: requireAuth(request), runId: request.params.id }),
  );

  route(fastify, endpoints.schedule, { onRequest: fastify.authenticate }, async (request) =>
    getCheckSchedule({ db: fastify.db, auth: requireAuth(request) }),
  );

  route(
    fastify,
    endpoints.updateSchedule,
    { onRequest: [fastify.authenticate, fastify.requireRole('admin')] },
    async (request) =>
      updateCheckSchedule({ db: fastify.db, auth: requireAuth(request), schedule: request.body }),
  );

  await fastify.register(eventRoutes);
  await fastify.register(oneTimeCheckRoutes, { config });
};
