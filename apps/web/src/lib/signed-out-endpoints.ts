import type { authEndpoints as AuthEndpoints } from '@pledgewatch/contract/endpoints/auth';
import type { userEndpoints as UserEndpoints } from '@pledgewatch/contract/endpoints/user';
import { endpointRoute } from './api-client';

type Auth = typeof AuthEndpoints;
type User = typeof UserEndpoints;

// Development only: the full definitions, to check the answers. Production builds drop these imports.
const auth = import.meta.env.DEV
  ? <K extends keyof Auth>(key: K) =>
      () =>
        import('@pledgewatch/contract/endpoints/auth').then((module) => module.authEndpoints[key])
  : () => undefined;
const user = import.meta.env.DEV
  ? <K extends keyof User>(key: K) =>
      () =>
        import('@pledgewatch/contract/endpoints/user').then((module) => module.userEndpoints[key])
  : () => undefined;

/**
 * The calls made before sign-in (the session check, sign-in and out, the build check, password
 * reset, e-mail confirmation) without their zod schemas: see `endpointRoute`. Method and path are
 * checked against the contract's definitions by the types.
 */
export const signedOutEndpoints = {
  buildInfo: endpointRoute<Auth['buildInfo']>(
    { method: 'GET', path: '/api/v1/build/info' },
    auth('buildInfo'),
  ),
  login: endpointRoute<Auth['login']>(
    { method: 'POST', path: '/api/v1/auth/login', bodyType: 'form' },
    auth('login'),
  ),
  logout: endpointRoute<Auth['logout']>({ method: 'DELETE', path: '/api/v1/auth/logout' }, auth('logout')),
  me: endpointRoute<Auth['me']>({ method: 'GET', path: '/api/v1/auth/me' }, auth('me')),
  resetPassword: endpointRoute<User['resetPassword']>(
    { method: 'POST', path: '/api/v1/user/reset-password' },
    user('resetPassword'),
  ),
  resetPasswordConfirm: endpointRoute<User['resetPasswordConfirm']>(
    { method: 'POST', path: '/api/v1/user/reset-password/confirm' },
    user('resetPasswordConfirm'),
  ),
  verifyEmail: endpointRoute<User['verifyEmail']>(
    { method: 'POST', path: '/api/v1/user/verify-email' },
    user('verifyEmail'),
  ),
};
