import { monitoringEndpoints, REPORT_HEADERS } from '@pledgewatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../lib/endpoint-route.ts';
import { attachment } from '../../lib/http.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { buildReport } from './reports.service.ts';

/**
 * `/api/v1/monitoring/report`: a report file, streamed while it is read from the database (a plain
 * GET, so a link downloads it with the auth_token cookie). The row count and a size estimate come
 * first, in headers, for the page's progress bar.
 */
export const reportRoutes: FastifyPluginAsync = async (fastify) => {
  route(
    fastify,
    monitoringEndpoints.report,
    // A HEAD would run the whole query only to throw the body away.
    { onRequest: fastify.authenticate, exposeHeadRoute: false },
    async (request, reply) => {
      const report = await buildReport({ db: fastify.db, auth: requireAuth(request), query: request.query });
      return reply
        .header('content-type', report.contentType)
        .header('content-disposition', attachment(report.fileName))
        .header('cache-control', 'no-store')
        .header(REPORT_HEADERS.rows, String(report.rows))
        .header(REPORT_HEADERS.estimatedBytes, String(report.estimatedBytes))
        .send(report.body);
    },
  );
};
