import { NEWS_STAFF_ONLY_MESSAGE, newsEndpoints } from '@pledgewatch/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import { route } from '../../lib/endpoint-route.ts';
import { requireAuth } from '../../plugins/auth.ts';
import {
  createNews,
  deleteNews,
  findNews,
  getUnreadNewsCount,
  markNewsRead,
  updateNews,
} from './news.service.ts';

/** Like `requireStaff`, but says what the user cannot do here. */
async function staffOnly(request: FastifyRequest): Promise<void> {
  if (!requireAuth(request).isStaff) {
    throw new AppError('FORBIDDEN', { message: NEWS_STAFF_ONLY_MESSAGE });
  }
}

/** `/api/v1/news`: product news for every signed-in user; platform staff write them. */
export const newsRoutes: FastifyPluginAsync = async (fastify) => {
  const signedIn = { onRequest: fastify.authenticate };
  const staff = { onRequest: [fastify.authenticate, staffOnly] };

  route(fastify, newsEndpoints.list, signedIn, async (request) =>
    findNews({ db: fastify.db, auth: requireAuth(request), ...request.query }),
  );

  route(fastify, newsEndpoints.unreadCount, signedIn, async (request) => ({
    count: await getUnreadNewsCount({ db: fastify.db, auth: requireAuth(request) }),
  }));

  route(fastify, newsEndpoints.markRead, signedIn, async (request) =>
    markNewsRead({ db: fastify.db, auth: requireAuth(request), ...request.body }),
  );

  route(fastify, newsEndpoints.create, staff, async (request) =>
    createNews({ db: fastify.db, auth: requireAuth(request), news: request.body }),
  );

  route(fastify, newsEndpoints.update, staff, async (request) =>
    updateNews({
      db: fastify.db,
      auth: requireAuth(request),
      newsId: request.params.id,
      changes: request.body,
    }),
  );

  route(fastify, newsEndpoints.delete, staff, async (request) => {
    await deleteNews({ db: fastify.db, auth: requireAuth(request), newsId: request.params.id });
    return { message: 'Новость удалена' };
  });
};
