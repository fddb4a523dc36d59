import {
  changePasswordBodySchema,
  inviteUserBodySchema,
  memberSchema,
  membersQuerySchema,
  membersResponseSchema,
  messageResponseSchema,
  profileResponseSchema,
  resetPasswordBodySchema,
  resetPasswordConfirmBodySchema,
  updateEmailBodySchema,
  updateMemberBodySchema,
  updateProfileBodySchema,
  userSchema,
  verifyEmailBodySchema,
} from '@pledgewatch/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppConfig } from '../../config/env.ts';
import { errors } from '../../lib/http.ts';
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
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const deps = () => ({ db: fastify.db, queue: fastify.queue, config });

  app.get(
    '/profile',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['user'],
        summary: 'Профиль: пользователь, ожидающий подтверждения e-mail и активные сеансы',
        response: { 200: profileResponseSchema, ...errors(401) },
      },
    },
    async (request) => getProfile({ db: fastify.db, auth: requireAuth(request) }),
  );

  app.patch(
    '/profile',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['user'],
        summary: 'Изменить имя',
        body: updateProfileBodySchema,
        response: { 200: userSchema, ...errors(401, 422) },
      },
    },
    async (request) =>
      updateProfile({ db: fastify.db, auth: requireAuth(request), fullName: request.body.fullName }),
  );

  app.put(
    '/email',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['user'],
        summary:
          'Сменить e-mail: письмо с подтверждением уходит на новый адрес (ответ не зависит от того, занят ли адрес)',
        body: updateEmailBodySchema,
        response: { 200: messageResponseSchema, ...errors(401, 409, 422, 429) },
      },
    },
    async (request) => ({
      message: await requestEmailChange({ ...deps(), auth: requireAuth(request), email: request.body.email }),
    }),
  );

  app.post(
    '/change-password',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['user'],
        summary: 'Сменить пароль; другие сеансы завершаются',
        body: changePasswordBodySchema,
        response: { 200: messageResponseSchema, ...errors(400, 401, 422, 429) },
      },
    },
    async (request) => {
      await changePassword({
        db: fastify.db,
        queue: fastify.queue,
        config,
        auth: requireAuth(request),
        oldPassword: request.body.old_password,
        newPassword: request.body.new_password,
      });
      return { message: 'Пароль изменён. Другие сеансы завершены' };
    },
  );

  app.post(
    '/reset-password',
    {
      schema: {
        tags: ['user'],
        summary: 'Запросить ссылку для восстановления пароля (ответ не зависит от существования e-mail)',
        security: [],
        body: resetPasswordBodySchema,
        response: { 200: messageResponseSchema, ...errors(422, 429) },
      },
    },
    async (request) => ({
      message: await requestPasswordReset({ ...deps(), email: request.body.email, ip: request.ip ?? null }),
    }),
  );

  app.post(
    '/reset-password/confirm',
    {
      schema: {
        tags: ['user'],
        summary: 'Задать новый пароль по ссылке из письма (восстановление или приглашение)',
        security: [],
        body: resetPasswordConfirmBodySchema,
        response: { 200: messageResponseSchema, ...errors(400, 422) },
      },
    },
    async (request) => {
      await confirmPasswordReset({
        db: fastify.db,
        token: request.body.token,
        newPassword: request.body.new_password,
      });
      return { message: 'Пароль сохранён. Войдите с новым паролем' };
    },
  );

  app.post(
    '/verify-email',
    {
      schema: {
        tags: ['user'],
        summary: 'Подтвердить e-mail (или новый e-mail) по ссылке из письма',
        security: [],
        body: verifyEmailBodySchema,
        response: { 200: messageResponseSchema, ...errors(400, 409, 422) },
      },
    },
    async (request) => ({ message: await verifyEmail({ db: fastify.db, token: request.body.token }) }),
  );

  app.post(
    '/verify-email/send',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['user'],
        summary: 'Отправить письмо для подтверждения текущего e-mail ещё раз',
        response: { 200: messageResponseSchema, ...errors(401) },
      },
    },
    async (request) => ({ message: await sendEmailVerification({ ...deps(), auth: requireAuth(request) }) }),
  );

  app.delete(
    '/sessions',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['user'],
        summary: 'Выйти на всех других устройствах',
        response: { 200: messageResponseSchema, ...errors(401) },
      },
    },
    async (request) => {
      const ended = await endOtherSessions({ db: fastify.db, auth: requireAuth(request) });
      return { message: `Завершено сеансов: ${ended}` };
    },
  );

  app.delete(
    '/sessions/:id',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['user'],
        summary: 'Завершить один сеанс',
        params: z.object({ id: z.uuid({ error: 'Неверный идентификатор сеанса' }) }),
        response: { 200: messageResponseSchema, ...errors(401, 404, 422) },
      },
    },
    async (request) => {
      await endSession({ db: fastify.db, auth: requireAuth(request), sessionId: request.params.id });
      return { message: 'Сеанс завершён' };
    },
  );
};

/** `/api/v1/users`: the organisation's members, managed by its admins. */
export const memberRoutes: FastifyPluginAsync<{ config: AppConfig }> = async (fastify, { config }) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const adminOnly = [fastify.authenticate, fastify.requireRole('admin')];

  app.get(
    '/',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['users'],
        summary: 'Пользователи организации',
        querystring: membersQuerySchema,
        response: { 200: membersResponseSchema, ...errors(401, 403, 422) },
      },
    },
    async (request) => findMembers({ db: fastify.db, auth: requireAuth(request), ...request.query }),
  );

  app.post(
    '/',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['users'],
        summary:
          'Пригласить пользователя: письмо со ссылкой для задания пароля (ответ не зависит от того, есть ли у адреса учётная запись в другой организации)',
        body: inviteUserBodySchema,
        response: { 202: messageResponseSchema, ...errors(401, 403, 409, 422, 429) },
      },
    },
    async (request, reply) => {
      const message = await inviteUser({
        db: fastify.db,
        queue: fastify.queue,
        config,
        auth: requireAuth(request),
        invite: request.body,
      });
      return reply.code(202).send({ message });
    },
  );

  app.patch(
    '/:id',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['users'],
        summary: 'Изменить роль или отключить пользователя',
        params: z.object({ id: z.uuid({ error: 'Неверный идентификатор пользователя' }) }),
        body: updateMemberBodySchema,
        response: { 200: memberSchema, ...errors(401, 403, 404, 409, 422) },
      },
    },
    async (request) =>
      updateMember({
        db: fastify.db,
        auth: requireAuth(request),
        memberId: request.params.id,
        ...request.body,
      }),
  );
};
