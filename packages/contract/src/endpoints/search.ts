import { defineEndpoint } from '../endpoint.ts';
import { searchQuerySchema, searchResponseSchema } from '../search.ts';

/** `/api/v1/search`: the header's one search box. */
export const searchEndpoints = {
  search: defineEndpoint({
    method: 'GET',
    path: '/api/v1/search',
    tags: ['search'],
    summary:
      'Поиск по объектам, событиям, реестру уведомлений, пакетам и разовым проверкам: группы по видам с числом найденного',
    query: searchQuerySchema,
    response: searchResponseSchema,
    errors: [401, 422],
  }),
};
