import { healthEndpoints } from '@pledgewatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import { migrationVersions } from '../../db/migrate.ts';
import { AppError } from '../../lib/app-error.ts';
import { route } from '../../lib/endpoint-route.ts';
import { checkReadiness, type HealthFailure } from './health.service.ts';

/** A load balancer may ask every second, several at once: they share one check per this many ms. */
export const READY_CACHE_MS = 1_000;

export const healthRoutes: FastifyPluginAsync = async (fastify) => {
  const migrations = await migrationVersions();
  let cached: { at: number; failures: Promise<HealthFailure[]> } | undefined;

  route(fastify, healthEndpoints.live, {}, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' as const };
  });

  route(fastify, healthEndpoints.ready, {}, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    const now = Date.now();
    if (!cached || now - cached.at >= READY_CACHE_MS) {
      cached = {
        at: now,
        failures: checkReadiness({ db: fastify.db, migrations, jobsRunning: fastify.jobsRunning() }),
      };
    }
    const failures = await cached.failures;
    if (failures.length > 0) {
      throw new AppError('NOT_READY', {
        message: `Сервис не готов: ${failures.map((failure) => failure.message).join('; ')}`,
        fieldErrors: failures,
      });
    }
    return { status: 'ready' as const, checks: { database: 'ok', migrations: 'ok', jobs: 'ok' } as const };
  });
};
