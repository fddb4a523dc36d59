import { defineEndpoint } from '../endpoint.ts';
import {
  createSavedViewBodySchema,
  savedViewSchema,
  savedViewsQuerySchema,
  savedViewsResponseSchema,
  updateSavedViewBodySchema,
} from '../saved-views.ts';
import { idParams } from './params.ts';

const viewParams = idParams('Неверный идентификатор вида');

/** `/api/v1/saved-views`: the signed-in user's own saved views of a list. */
export const savedViewEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: '/api/v1/saved-views',
    tags: ['saved-views'],
    summary: 'Сохранённые виды списка у текущего пользователя, по названию',
    query: savedViewsQuerySchema,
    response: savedViewsResponseSchema,
    errors: [401, 422],
  }),
  create: defineEndpoint({
    method: 'POST',
    path: '/api/v1/saved-views',
    tags: ['saved-views'],
    summary: 'Сохранить фильтры и сортировку списка под названием',
    body: createSavedViewBodySchema,
    response: savedViewSchema,
    status: 201,
    errors: [401, 422],
  }),
  update: defineEndpoint({
    method: 'PATCH',
    path: '/api/v1/saved-views/:id',
    tags: ['saved-views'],
    summary: 'Переименовать вид, заменить его фильтры или сделать видом по умолчанию',
    params: viewParams,
    body: updateSavedViewBodySchema,
    response: savedViewSchema,
    errors: [401, 404, 422],
  }),
  remove: defineEndpoint({
    method: 'DELETE',
    path: '/api/v1/saved-views/:id',
    tags: ['saved-views'],
    summary: 'Удалить сохранённый вид',
    params: viewParams,
    response: savedViewSchema,
    errors: [401, 404, 422],
  }),
};
