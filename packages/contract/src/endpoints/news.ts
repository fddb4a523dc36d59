import { messageResponseSchema } from '../common.ts';
import { defineEndpoint } from '../endpoint.ts';
import {
  createNewsBodySchema,
  markNewsReadBodySchema,
  markNewsReadResponseSchema,
  newsIdParamsSchema,
  newsItemSchema,
  newsPageSchema,
  newsQuerySchema,
  newsUnreadCountResponseSchema,
  updateNewsBodySchema,
} from '../news.ts';

/** `/api/v1/news`: product news for every signed-in user; platform staff write them. */
export const newsEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: '/api/v1/news',
    tags: ['news'],
    summary: 'Новости продукта: закреплённые, затем новые сверху; с отметкой о прочтении',
    query: newsQuerySchema,
    response: newsPageSchema,
    errors: [401, 422],
  }),
  unreadCount: defineEndpoint({
    method: 'GET',
    path: '/api/v1/news/unread-count',
    tags: ['news'],
    summary: 'Число непрочитанных новостей (значок в меню)',
    response: newsUnreadCountResponseSchema,
    errors: [401],
  }),
  markRead: defineEndpoint({
    method: 'POST',
    path: '/api/v1/news/read',
    tags: ['news'],
    summary: 'Отметить новости прочитанными: перечисленные (ids) или все (all: true)',
    body: markNewsReadBodySchema,
    response: markNewsReadResponseSchema,
    errors: [401, 422],
  }),
  create: defineEndpoint({
    method: 'POST',
    path: '/api/v1/news',
    tags: ['news'],
    summary: 'Опубликовать новость или сохранить черновик (сотрудники платформы)',
    body: createNewsBodySchema,
    response: newsItemSchema,
    status: 201,
    errors: [401, 403, 422],
  }),
  update: defineEndpoint({
    method: 'PATCH',
    path: '/api/v1/news/:id',
    tags: ['news'],
    summary: 'Изменить новость; draft: false публикует черновик (сотрудники платформы)',
    params: newsIdParamsSchema,
    body: updateNewsBodySchema,
    response: newsItemSchema,
    errors: [401, 403, 404, 422],
  }),
  delete: defineEndpoint({
    method: 'DELETE',
    path: '/api/v1/news/:id',
    tags: ['news'],
    summary: 'Удалить новость (сотрудники платформы)',
    params: newsIdParamsSchema,
    response: messageResponseSchema,
    errors: [401, 403, 404, 422],
  }),
};
