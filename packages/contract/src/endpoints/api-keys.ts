import {
  apiKeySchema,
  apiKeysResponseSchema,
  createApiKeyBodySchema,
  createdApiKeySchema,
} from '../api-keys.ts';
import { defineEndpoint } from '../endpoint.ts';
import { idParams } from './params.ts';

/** `/api/v1/api-keys`: the organisation's API keys; an admin's, signed in as a person. */
export const apiKeyEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: '/api/v1/api-keys',
    tags: ['api-keys'],
    summary: 'Ключи API организации с последним использованием',
    response: apiKeysResponseSchema,
    errors: [401, 403],
  }),
  create: defineEndpoint({
    method: 'POST',
    path: '/api/v1/api-keys',
    tags: ['api-keys'],
    summary: 'Создать ключ API; ключ целиком в ответе, один раз',
    body: createApiKeyBodySchema,
    response: createdApiKeySchema,
    status: 201,
    errors: [401, 403, 422],
  }),
  revoke: defineEndpoint({
    method: 'DELETE',
    path: '/api/v1/api-keys/:id',
    tags: ['api-keys'],
    summary: 'Отозвать ключ API: перестаёт действовать сразу',
    params: idParams('Неверный идентификатор ключа'),
    response: apiKeySchema,
    errors: [401, 403, 404, 422],
  }),
};
