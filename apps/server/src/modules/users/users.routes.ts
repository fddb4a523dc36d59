import { memberEndpoints, userEndpoints } from '@pledgewatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { AppConfig } from '../../config/env.ts';
import { route } from '../../lib/endpoint-route.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { findMembers, inviteUser, updateMember } from './members.service.ts';
import { confirmPasswordReset, requestPasswordReset, verifyEmail } from './user-tokens.service.ts';
import {
  changePassword,
  endOtherSessions,
  endSession,
  getProfile,
  requestEmailChange,
  sendEmailVerification,
  updateProfile,
} from './users.service.ts';

/** `/api/v1/user/*`: the signed-in user's own account, and the public reset / verify calls. */
export const userRoutes: FastifyPluginAsync<{ config: AppConfig }> = async (fastify, { config }) => {
  const endpoints = userEndpoints;
  const deps = () => ({ db: fastify.db, queue: fastify.queue, config });
  const signedIn = { onRequest: fastify.authenticate };

  route(fastify, endpoints.profile, signedIn, async (request) =>
    getProfile({ db: fastify.db, auth: requireAuth(request) }),
  );

  route(fastify, endpoints.updateProfile, signedIn, async (request) =>
    updateProfile({ db: fastify.db, auth: requireAuth(request), fullName: request.body.fullName }),
  );

  route(fastify, endpoints.updateEmail, signedIn, async (request) => ({
    message: await requestEmailChange({ ...deps(), auth: requireAuth(request), email: request.body.email }),
  }));

  route(fastify, endpoints.changePassword, signedIn, async (request) => {
    await changePassword({
      db: fastify.db,
      queue: fastify.queue,
      config,
      auth: requireAuth(request),
      oldPassword: request.body.old_password,
      newPassword: request.body.new_password,
    });
    return { message: 'Пароль изменён. Другие сеансы завершены' };
  });

  route(fastify, endpoints.resetPassword, {}, async (request) => ({
    message: await requestPasswordReset({ ...deps(), email: request.body.email, ip: request.ip ?? null }),
  }));

  route(fastify, endpoints.resetPasswordConfirm, {}, async (request) => {
    await confirmPasswordReset({
      db: fastify.db,
      token: request.body.token,
      newPassword: request.body.new_password,
    });
    return { message: 'Пароль сохранён. Войдите с новым паролем' };
  });

  route(fastify, endpoints.verifyEmail, {}, async (request) => ({
    message: await verifyEmail({ db: fastify.db, token: request.body.token }),
  }));

  route(fastify, endpoints.resendVerification, signedIn, async (request) => ({
    message: await sendEmailVerification({ ...deps(), auth: requireAuth(request) }),
  }));

  route(fastify, endpoints.endOtherSessions, signedIn, async (request) => {
    const ended = await endOtherSessions({ db: fastify.db, auth: requireAuth(request) });
    return { message: `Завершено сеансов: ${ended}` };
  });

  route(fastify, endpoints.endSession, signedIn, async (request) => {
    await endSession({ db: fastify.db, auth: requireAuth(request), sessionId: request.params.id });
    return { message: 'Сеанс завершён' };
  });
};

/** `/api/v1/users`: the organisation's members, managed by its admins. */
export const memberRoutes: FastifyPluginAsync<{ config: AppConfig }> = async (fastify, { config }) => {
  const adminOnly = { onRequest: [fastify.authenticate, fastify.requireRole('admin')] };

  route(fastify, memberEndpoints.list, adminOnly, async (request) =>
    findMembers({ db: fastify.db, auth: requireAuth(request), ...request.query }),
  );

  route(fastify, memberEndpoints.invite, adminOnly, async (request) => ({
    message: await inviteUser({
      db: fastify.db,
      queue: fastify.queue,
      config,
      auth: requireAuth(request),
      invite: request.body,
    }),
  }));

  route(fastify, memberEndpoints.update, adminOnly, async (request) =>
    updateMember({
      db: fastify.db,
      auth: requireAuth(request),
      memberId: request.params.id,
      ...request.body,
    }),
  );
};
