import { z } from 'zod';
import { roleSchema, userSchema } from './auth.ts';
import { emailField, isoDateTime, passwordField, requiredText } from './common.ts';

export const sessionSchema = z.object({
  id: z.string(),
  createdAt: isoDateTime,
  lastUsedAt: isoDateTime,
  expiresAt: isoDateTime,
  userAgent: z.string().nullable(),
  ip: z.string().nullable(),
  current: z.boolean(),
});
export type Session = z.infer<typeof sessionSchema>;

export const profileResponseSchema = z.object({
  user: userSchema,
  pendingEmail: z.string().nullable().describe('Новый адрес, ожидающий подтверждения'),
  sessions: z.array(sessionSchema),
});
export type ProfileResponse = z.infer<typeof profileResponseSchema>;

export const updateProfileBodySchema = z.object({ fullName: requiredText(200) });
export const updateEmailBodySchema = z.object({ email: emailField });
export const changePasswordBodySchema = z.object({
  old_password: z.string().min(1, { error: 'Обязательное поле' }),
  new_password: passwordField,
});
export const resetPasswordBodySchema = z.object({ email: emailField });
export const resetPasswordConfirmBodySchema = z.object({
  token: requiredText(200),
  new_password: passwordField,
});
export const verifyEmailBodySchema = z.object({ token: requiredText(200) });

export type UpdateEmailBody = z.infer<typeof updateEmailBodySchema>;
export type ChangePasswordBody = z.infer<typeof changePasswordBodySchema>;
export type ResetPasswordBody = z.infer<typeof resetPasswordBodySchema>;
export type ResetPasswordConfirmBody = z.infer<typeof resetPasswordConfirmBodySchema>;
export type VerifyEmailBody = z.infer<typeof verifyEmailBodySchema>;
export type UpdateProfileBody = z.infer<typeof updateProfileBodySchema>;

export const MEMBER_STATUSES = ['invited', 'active', 'disabled'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

/** Organisation members, managed by an admin. */
export const memberSchema = userSchema.omit({ organisation: true }).extend({
  active: z.boolean().describe('Вход разрешён (false — отключён администратором)'),
  status: z
    .enum(MEMBER_STATUSES)
    .describe(
      'invited — приглашён, ещё не задал пароль по ссылке из письма; active — активен; disabled — отключён',
    ),
  lastLoginAt: isoDateTime.nullable(),
});
export type Member = z.infer<typeof memberSchema>;
export const membersResponseSchema = z.object({ items: z.array(memberSchema), total: z.number().int() });
export const inviteUserBodySchema = z.object({
  email: emailField,
  fullName: requiredText(200),
  role: roleSchema,
});
export type InviteUserBody = z.infer<typeof inviteUserBodySchema>;
export const updateMemberBodySchema = z.object({
  role: roleSchema.optional(),
  active: z.boolean().optional(),
});
export type UpdateMemberBody = z.infer<typeof updateMemberBodySchema>;
export const membersQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(25),
  search: z.string().trim().max(200).optional().describe('Поиск по e-mail и имени'),
});
export type MembersQuery = z.input<typeof membersQuerySchema>;
