import { loginBodySchema, meResponseSchema, tokenResponseSchema } from '../auth.ts';
import { messageResponseSchema } from '../common.ts';
import { defineEndpoint } from '../endpoint.ts';
import { buildInfoResponseSchema } from '../platform.ts';

/** Sign-in, sign-out, the current user and the build id: what the signed-out screens need. */
export const authEndpoints = {
  buildInfo: defineEndpoint({
    method: 'GET',
    path: '/api/v1/build/info',
    tags: ['platform'],
    summary: 'Идентификатор сборки; веб-клиент перезагружается, когда он меняется',
    public: true,
    response: buildInfoResponseSchema,
  }),
  login: defineEndpoint({
    method: 'POST',
    path: '/api/v1/auth/login',
    tags: ['auth'],
    summary: 'Вход по e-mail и паролю (OAuth2 password grant, form-urlencoded)',
    public: true,
    bodyType: 'form',
    body: loginBodySchema,
    response: tokenResponseSchema,
    errors: [400, 401, 403, 422, 429],
  }),
  logout: defineEndpoint({
    method: 'DELETE',
    path: '/api/v1/auth/logout',
    tags: ['auth'],
    summary: 'Выход: текущий токен перестаёт действовать',
    response: messageResponseSchema,
    errors: [401, 403],
  }),
  me: defineEndpoint({
    method: 'GET',
    path: '/api/v1/auth/me',
    tags: ['auth'],
    summary: 'Текущий пользователь',
    response: meResponseSchema,
    errors: [401],
  }),
};
