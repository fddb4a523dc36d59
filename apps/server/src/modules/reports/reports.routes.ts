import { REPORT_HEADERS, reportQuerySchema } from '@pledgewatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { attachment, errors } from '../../lib/http.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { buildReport } from './reports.service.ts';

const fileResponse = z
  .any()
  .describe('Файл отчёта: XLSX, CSV (разделитель «;», UTF-8 с BOM или Windows-1251) или PDF');

/**
 * `/api/v1/monitoring/report`: a report file, streamed while it is read from the database (a plain
 * GET, so a link downloads it with the auth_token cookie). The row count and a size estimate come
 * first, in headers, for the page's progress bar.
 */
export const reportRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/report',
    {
      // A HEAD would run the whole query only to throw the body away.
      exposeHeadRoute: false,
      onRequest: fastify.authenticate,
      schema: {
        tags: ['reports'],
        summary:
          'Отчёт файлом: события за период, портфель с находками, разовые проверки или загрузки — XLSX, CSV или PDF',
        querystring: reportQuerySchema,
        produces: [
          'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          'text/csv',
          'application/pdf',
        ],
        response: { 200: fileResponse, ...errors(401, 422) },
      },
    },
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
