import { userSchema } from '../auth.ts';
import { messageResponseSchema } from '../common.ts';
import { defineEndpoint } from '../endpoint.ts';
import {
  changePasswordBodySchema,
  inviteUserBodySchema,
  memberSchema,
  membersQuerySchema,
  membersResponseSchema,
  profileResponseSchema,
  resetPasswordBodySchema,
  resetPasswordConfirmBodySchema,
  updateEmailBodySchema,
  updateMemberBodySchema,
  updateProfileBodySchema,
  verifyEmailBodySchema,
} from '../user.ts';
import { idParams } from './params.ts';

/** `/api/v1/user/*`: the signed-in user's own account, and the public reset / verify calls. */
export const userEndpoints = {
  profile: defineEndpoint({
    method: 'GET',
    path: '/api/v1/user/profile',
    tags: ['user'],
    summary: 'Профиль: пользователь, ожидающий подтверждения e-mail и активные сеансы',
    response: profileResponseSchema,
    errors: [401],
  }),
  updateProfile: defineEndpoint({
    method: 'PATCH',
    path: '/api/v1/user/profile',
    tags: ['user'],
    summary: 'Изменить имя',
    body: updateProfileBodySchema,
    response: userSchema,
    errors: [401, 422],
  }),
  updateEmail: defineEndpoint({
    method: 'PUT',
    path: '/api/v1/user/email',
    tags: ['user'],
    summary:
      'Сменить e-mail: письмо с подтверждением уходит на новый адрес (ответ не зависит от того, занят ли адрес)',
    body: updateEmailBodySchema,
    response: messageResponseSchema,
    errors: [401, 409, 422, 429],
  }),
  changePassword: defineEndpoint({
    method: 'POST',
    path: '/api/v1/user/change-password',
    tags: ['user'],
    summary: 'Сменить пароль; другие сеансы завершаются',
    body: changePasswordBodySchema,
    response: messageResponseSchema,
    errors: [400, 401, 422, 429],
  }),
  resetPassword: defineEndpoint({
    method: 'POST',
    path: '/api/v1/user/reset-password',
    tags: ['user'],
    summary: 'Запросить ссылку для восстановления пароля (ответ не зависит от существования e-mail)',
    public: true,
    body: resetPasswordBodySchema,
    response: messageResponseSchema,
    errors: [422, 429],
  }),
  resetPasswordConfirm: defineEndpoint({
    method: 'POST',
    path: '/api/v1/user/reset-password/confirm',
    tags: ['user'],
    summary: 'Задать новый пароль по ссылке из письма (восстановление или приглашение)',
    public: true,
    body: resetPasswordConfirmBodySchema,
    response: messageResponseSchema,
    errors: [400, 422],
  }),
  verifyEmail: defineEndpoint({
    method: 'POST',
    path: '/api/v1/user/verify-email',
    tags: ['user'],
    summary: 'Подтвердить e-mail (или новый e-mail) по ссылке из письма',
    public: true,
    body: verifyEmailBodySchema,
    response: messageResponseSchema,
    errors: [400, 409, 422],
  }),
  resendVerification: defineEndpoint({
    method: 'POST',
    path: '/api/v1/user/verify-email/send',
    tags: ['user'],
    summary: 'Отправить письмо для подтверждения текущего e-mail ещё раз',
    response: messageResponseSchema,
    errors: [401],
  }),
  endOtherSessions: defineEndpoint({
    method: 'DELETE',
    path: '/api/v1/user/sessions',
    tags: ['user'],
    summary: 'Выйти на всех других устройствах',
    response: messageResponseSchema,
    errors: [401],
  }),
  endSession: defineEndpoint({
    method: 'DELETE',
    path: '/api/v1/user/sessions/:id',
    tags: ['user'],
    summary: 'Завершить один сеанс',
    params: idParams('Неверный идентификатор сеанса'),
    response: messageResponseSchema,
    errors: [401, 404, 422],
  }),
};

/** `/api/v1/users`: the organisation's members, managed by its admins. */
export const memberEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: '/api/v1/users',
    tags: ['users'],
    summary: 'Пользователи организации',
    query: membersQuerySchema,
    response: membersResponseSchema,
    errors: [401, 403, 422],
  }),
  invite: defineEndpoint({
    method: 'POST',
    path: '/api/v1/users',
    tags: ['users'],
    summary:
      'Пригласить пользователя: письмо со ссылкой для задания пароля (ответ не зависит от того, есть ли у адреса учётная запись в другой организации)',
    body: inviteUserBodySchema,
    response: messageResponseSchema,
    status: 202,
    errors: [401, 403, 409, 422, 429],
  }),
  update: defineEndpoint({
    method: 'PATCH',
    path: '/api/v1/users/:id',
    tags: ['users'],
    summary: 'Изменить роль или отключить пользователя',
    params: idParams('Неверный идентификатор пользователя'),
    body: updateMemberBodySchema,
    response: memberSchema,
    errors: [401, 403, 404, 409, 422],
  }),
};
