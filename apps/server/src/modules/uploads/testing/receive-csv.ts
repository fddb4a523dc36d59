import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../../../config/env.ts';
import type { TestUser } from '../../../testing/test-app.ts';
import { createUpload } from '../uploads.service.ts';

/** A portfolio CSV received by the service for `user` (auto-confirmed), before its jobs. */
export function receiveItemsCsv(app: FastifyInstance, config: AppConfig, user: TestUser, csv: string) {
  return createUpload({
    db: app.db,
    queue: app.queue,
    config,
    auth: {
      organisationId: user.organisationId,
      userId: user.id,
      sessionId: '',
      role: 'analyst',
      isStaff: false,
    },
    kind: 'items',
    autoConfirm: true,
    file: { fileName: 'portfolio.csv', stream: Readable.from([Buffer.from(csv)]) },
  });
}
