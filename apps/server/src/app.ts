import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import { API_KEY_PREFIX, type ErrorResponse } from '@pledgewatch/contract';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import { type AppConfig, fastifyTrustProxy } from './config/env.ts';
import { isConnectionError } from './db/pool.ts';
import { type AppError, ERRORS, isAppError } from './lib/app-error.ts';
import { opaqueBuildId, readBuildId } from './lib/build-info.ts';
import { logDestination } from './lib/logger.ts';
import type { PhaseTimings } from './lib/phase-timings.ts';
import { clearSessionCookie, hasSessionCookie } from './lib/session-cookie.ts';
import { apiKeyRoutes, authenticateApiKey } from './modules/api-keys/index.ts';
import { auditRoutes } from './modules/audit/index.ts';
import { authenticateToken, authRoutes } from './modules/auth/index.ts';
import { checksRoutes } from './modules/checks/index.ts';
import { dashboardRoutes } from './modules/dashboard/index.ts';
import { healthRoutes } from './modules/health/index.ts';
import { monitoringRoutes } from './modules/monitoring/index.ts';
import { newsRoutes } from './modules/news/index.ts';
import { notificationRoutes } from './modules/notifications/index.ts';
import { buildRoutes, platformRoutes } from './modules/platform/index.ts';
import { pledgeRoutes } from './modules/pledges/index.ts';
import { reportRoutes } from './modules/reports/index.ts';
import { savedViewRoutes } from './modules/saved-views/index.ts';
import { searchRoutes } from './modules/search/index.ts';
import { statisticsRoutes } from './modules/statistics/index.ts';
import { uploadRoutes } from './modules/uploads/index.ts';
import { currentUserRoutes, memberRoutes, userRoutes } from './modules/users/index.ts';
import authPlugin from './plugins/auth.ts';
import dbPlugin from './plugins/db.ts';
import idempotencyPlugin from './plugins/idempotency.ts';
import inputGuardPlugin from './plugins/input-guard.ts';
import jobsPlugin from './plugins/jobs.ts';
import mailerPlugin from './plugins/mailer.ts';
import metricsPlugin, { queueMetricsPlugin } from './plugins/metrics.ts';
import securityHeadersPlugin from './plugins/security-headers.ts';
import swaggerPlugin from './plugins/swagger.ts';
import transferLimitsPlugin, { transferTimeouts } from './plugins/transfer-limits.ts';
import webPlugin from './plugins/web.ts';
import { registerModules } from './wiring.ts';

export interface BuildAppOptions {
  config: AppConfig;
  /** The database to use (the configured server or the embedded one started by the caller). */
  connectionString: string;
  /** Apply migrations at start; tests pass false when their template database is ready. */
  migrate?: boolean;
  /** Consume background jobs in this process. Defaults to config.runWorkers. */
  runWorkers?: boolean;
  logger?: boolean;
  /** A sink the jobs add their time per phase to (the checks benchmark); none by default. */
  jobTimings?: PhaseTimings;
}

/** What a 503 for an unreachable database tells the client to wait before trying again. */
const DATABASE_RETRY_AFTER_SECONDS = 30;

/** Maps a zod issue path such as ["body", "new_password"] to the field name the client sent. */
function fieldOf(instancePath: string | undefined, params: unknown): string {
  const fromPath = (instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
  if (fromPath) {
    return fromPath;
  }
  const issue = (params as { issue?: { path?: PropertyKey[] } } | undefined)?.issue;
  return issue?.path?.map(String).join('.') ?? '';
}

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = options;
  registerModules();
  const app = Fastify({
    // Fastify's own pino, with its request serializers; readable lines in a terminal (lib/logger.ts).
    logger: options.logger === false ? false : { level: config.logLevel, stream: logDestination() },
    trustProxy: fastifyTrustProxy(config.trustProxy),
    bodyLimit: 10 * 1024 * 1024,
    ...transferTimeouts(config),
    ajv: undefined,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    let body: ErrorResponse;
    if (isAppError(error)) {
      body = { statusCode: error.statusCode, code: error.code, message: error.message };
      if (error.fieldErrors) {
        body.fieldErrors = error.fieldErrors;
      }
      if (error.headers) {
        reply.headers(error.headers);
      }
    } else if (hasZodFastifySchemaValidationErrors(error)) {
      body = {
        statusCode: 422,
        code: 'VALIDATION_FAILED',
        message: ERRORS.VALIDATION_FAILED.message,
        fieldErrors: error.validation.map((issue) => ({
          field: fieldOf(issue.instancePath, issue.params),
          message: issue.message ?? 'Неверный формат',
        })),
      };
    } else if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, 'response does not match its schema');
      body = { statusCode: 500, code: 'INTERNAL', message: ERRORS.INTERNAL.message };
    } else if (error.statusCode === 413 || error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      body = { statusCode: 413, code: 'PAYLOAD_TOO_LARGE', message: ERRORS.PAYLOAD_TOO_LARGE.message };
    } else if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      // Fastify's own client errors (bad JSON, wrong content type): keep the status, say it in Russian.
      body = { statusCode: error.statusCode, code: 'BAD_REQUEST', message: ERRORS.BAD_REQUEST.message };
    } else if (isConnectionError(error)) {
      // PostgreSQL is down or restarting: the pool reconnects by itself once it is back.
      request.log.warn({ err: error }, 'database unavailable');
      reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
      body = {
        statusCode: 503,
        code: 'SERVICE_UNAVAILABLE',
        message: ERRORS.SERVICE_UNAVAILABLE.message,
      };
    } else {
      request.log.error({ err: error }, 'unhandled error');
      // 5xx details stay in the log, never in the response.
      body = { statusCode: 500, code: 'INTERNAL', message: ERRORS.INTERNAL.message };
    }
    if (body.statusCode === 401) {
      reply.header('www-authenticate', 'Bearer');
      // The seed's rule: a 401 clears the token. The cookie is HttpOnly, so the server clears it.
      if (hasSessionCookie(request)) {
        clearSessionCookie(request, reply);
      }
    }
    return reply.code(body.statusCode).send(body);
  });

  // First, so their hooks run for every request, also those that end in an error or a 404.
  await app.register(metricsPlugin, { token: config.metricsToken });
  await app.register(securityHeadersPlugin);
  await app.register(cookie);
  await app.register(inputGuardPlugin);
  await app.register(transferLimitsPlugin, config);
  await app.register(formbody);
  await app.register(mailerPlugin, { smtpUrl: config.smtpUrl, from: config.mailFrom });
  await app.register(dbPlugin, {
    connectionString: options.connectionString,
    migrate: options.migrate ?? true,
    poolSize: config.dbPoolSize,
  });
  await app.register(queueMetricsPlugin);
  await app.register(jobsPlugin, {
    connectionString: options.connectionString,
    config,
    work: options.runWorkers ?? config.runWorkers,
    timings: options.jobTimings,
  });
  await app.register(authPlugin, {
    sessionTtl: config.sessionTtl,
    appUrl: config.appUrl,
    // A bearer `pwk_…` is an API key (modules/api-keys); anything else a session token.
    authenticateToken: (options) =>
      options.token.startsWith(API_KEY_PREFIX) ? authenticateApiKey(options) : authenticateToken(options),
  });
  await app.register(idempotencyPlugin);
  await app.register(swaggerPlugin, { appUrl: config.appUrl });

  const build = readBuildId(config.webDist);
  // The commit stays in the log; the unauthenticated build check only needs something that changes.
  app.log.info({ build }, 'web build');
  const buildId = opaqueBuildId(build);
  await app.register(
    async (api) => {
      await api.register(buildRoutes, { prefix: '/build', buildId });
      await api.register(healthRoutes, { prefix: '/health' });
      await api.register(authRoutes, { prefix: '/auth', config });
      await api.register(currentUserRoutes, { prefix: '/auth' });
      await api.register(userRoutes, { prefix: '/user', config });
      await api.register(memberRoutes, { prefix: '/users', config });
      await api.register(platformRoutes, { prefix: '/platform' });
      await api.register(auditRoutes, { prefix: '/audit' });
      await api.register(newsRoutes, { prefix: '/news' });
      await api.register(monitoringRoutes, { prefix: '/monitoring' });
      await api.register(uploadRoutes, { prefix: '/monitoring/uploads', config });
      await api.register(notificationRoutes, { prefix: '/monitoring/notifications', config });
      await api.register(checksRoutes, { prefix: '/monitoring', config });
      await api.register(statisticsRoutes, { prefix: '/monitoring/statistics' });
      await api.register(reportRoutes, { prefix: '/monitoring' });
      await api.register(dashboardRoutes, { prefix: '/monitoring' });
      await api.register(pledgeRoutes, { config });
      await api.register(apiKeyRoutes, { prefix: '/api-keys' });
      await api.register(searchRoutes, { prefix: '/search' });
      await api.register(savedViewRoutes, { prefix: '/saved-views' });
    },
    { prefix: '/api/v1' },
  );
  await app.register(webPlugin, { webDist: config.webDist });
  return app;
}
