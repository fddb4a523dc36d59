import {
  createNewsBodySchema,
  markNewsReadBodySchema,
  markNewsReadResponseSchema,
  messageResponseSchema,
  NEWS_STAFF_ONLY_MESSAGE,
  newsIdParamsSchema,
  newsItemSchema,
  newsPageSchema,
  newsQuerySchema,
  newsUnreadCountResponseSchema,
  updateNewsBodySchema,
} from '@pledgewatch/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error.ts';
import { errors } from '../../lib/http.ts';
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
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const staff = [fastify.authenticate, staffOnly];

  app.get(
    '/',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['news'],
        summary: 'Новости продукта: закреплённые, затем новые сверху; с отметкой о прочтении',
        querystring: newsQuerySchema,
        response: { 200: newsPageSchema, ...errors(401, 422) },
      },
    },
    async (request) => findNews({ db: fastify.db, auth: requireAuth(request), ...request.query }),
  );

  app.get(
    '/unread-count',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['news'],
        summary: 'Число непрочитанных новостей (значок в меню)',
        response: { 200: newsUnreadCountResponseSchema, ...errors(401) },
      },
    },
    async (request) => ({ count: await getUnreadNewsCount({ db: fastify.db, auth: requireAuth(request) }) }),
  );

  app.post(
    '/read',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['news'],
        summary: 'Отметить новости прочитанными: перечисленные (ids) или все (all: true)',
        body: markNewsReadBodySchema,
        response: { 200: markNewsReadResponseSchema, ...errors(401, 422) },
      },
    },
    async (request) => markNewsRead({ db: fastify.db, auth: requireAuth(request), ...request.body }),
  );

  app.post(
    '/',
    {
      onRequest: staff,
      schema: {
        tags: ['news'],
        summary: 'Опубликовать новость или сохранить черновик (сотрудники платформы)',
        body: createNewsBodySchema,
        response: { 201: newsItemSchema, ...errors(401, 403, 422) },
      },
    },
    async (request, reply) => {
      const news = await createNews({ db: fastify.db, auth: requireAuth(request), news: request.body });
      return reply.code(201).send(news);
    },
  );

  app.patch(
    '/:id',
    {
      onRequest: staff,
      schema: {
        tags: ['news'],
        summary: 'Изменить новость; draft: false публикует черновик (сотрудники платформы)',
        params: newsIdParamsSchema,
        body: updateNewsBodySchema,
        response: { 200: newsItemSchema, ...errors(401, 403, 404, 422) },
      },
    },
    async (request) =>
      updateNews({
        db: fastify.db,
        auth: requireAuth(request),
        newsId: request.params.id,
        changes: request.body,
      }),
  );

  app.delete(
    '/:id',
    {
      onRequest: staff,
      schema: {
        tags: ['news'],
        summary: 'Удалить новость (сотрудники платформы)',
        params: newsIdParamsSchema,
        response: { 200: messageResponseSchema, ...errors(401, 403, 404, 422) },
      },
    },
    async (request) => {
      await deleteNews({ db: fastify.db, auth: requireAuth(request), newsId: request.params.id });
      return { message: 'Новость удалена' };
    },
  );
};
