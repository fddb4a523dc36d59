import multipart from '@fastify/multipart';
import { uploadEndpoints as endpoints } from '@pledgewatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { AppConfig } from '../../config/env.ts';
import { AppError, isAppError } from '../../lib/app-error.ts';
import { route } from '../../lib/endpoint-route.ts';
import { attachment } from '../../lib/http.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { contentTypeOf } from './upload-files.ts';
import { selectUploadSheet, setUploadMapping } from './upload-mapping.service.ts';
import {
  cancelUpload,
  confirmUpload,
  createUpload,
  findUploadErrorRows,
  findUploads,
  getUpload,
  uploadErrorsFile,
  uploadTemplateFile,
} from './uploads.service.ts';

/** `/api/v1/monitoring/uploads`: file uploads of the portfolio, their preview, confirmation and history. */
export const uploadRoutes: FastifyPluginAsync<{ config: AppConfig }> = async (fastify, { config }) => {
  await fastify.register(multipart, {
    limits: { fileSize: config.uploadMaxBytes, files: 1, fields: 10, fieldSize: 1024, parts: 20 },
  });
  const readers = { onRequest: fastify.authenticate };
  const writers = { onRequest: [fastify.authenticate, fastify.requireRole('admin', 'analyst')] };

  route(fastify, endpoints.create, writers, async (request) => {
    let file: Awaited<ReturnType<typeof request.file>>;
    try {
      file = request.isMultipart() ? await request.file() : undefined;
    } catch (error) {
      if (isAppError(error)) {
        throw error; // the edge's refusal (input-guard), e.g. a NUL in the file name
      }
      throw new AppError('UPLOAD_NO_FILE');
    }
    if (!file) {
      throw new AppError('UPLOAD_NO_FILE');
    }
    return createUpload({
      db: fastify.db,
      queue: fastify.queue,
      config,
      auth: requireAuth(request),
      kind: request.query.kind,
      autoConfirm: request.query.autoConfirm,
      file: { fileName: file.filename, stream: file.file },
    });
  });

  route(fastify, endpoints.list, readers, async (request) =>
    findUploads({ db: fastify.db, auth: requireAuth(request), ...request.query }),
  );

  route(fastify, endpoints.template, readers, async (request, reply) => {
    const file = uploadTemplateFile(request.query);
    return reply
      .header('content-type', contentTypeOf(request.query.format))
      .header('content-disposition', attachment(file.fileName))
      .send(file.body);
  });

  route(fastify, endpoints.detail, readers, async (request) =>
    getUpload({ db: fastify.db, auth: requireAuth(request), uploadId: request.params.id }),
  );

  route(fastify, endpoints.errorRows, readers, async (request) =>
    findUploadErrorRows({
      db: fastify.db,
      auth: requireAuth(request),
      uploadId: request.params.id,
      ...request.query,
    }),
  );

  route(fastify, endpoints.errorsFile, readers, async (request, reply) => {
    const file = await uploadErrorsFile({
      db: fastify.db,
      auth: requireAuth(request),
      uploadId: request.params.id,
      format: request.query.format,
    });
    return reply
      .header('content-type', contentTypeOf(request.query.format))
      .header('content-disposition', attachment(file.fileName))
      .send(file.body);
  });

  route(fastify, endpoints.confirm, writers, async (request) =>
    confirmUpload({
      db: fastify.db,
      queue: fastify.queue,
      auth: requireAuth(request),
      uploadId: request.params.id,
    }),
  );

  route(fastify, endpoints.mapping, writers, async (request) =>
    setUploadMapping({
      db: fastify.db,
      queue: fastify.queue,
      auth: requireAuth(request),
      uploadId: request.params.id,
      body: request.body,
    }),
  );

  route(fastify, endpoints.sheet, writers, async (request) =>
    selectUploadSheet({
      db: fastify.db,
      queue: fastify.queue,
      config,
      auth: requireAuth(request),
      uploadId: request.params.id,
      sheet: request.body.sheet,
    }),
  );

  route(fastify, endpoints.cancel, writers, async (request) =>
    cancelUpload({ db: fastify.db, config, auth: requireAuth(request), uploadId: request.params.id }),
  );
};
