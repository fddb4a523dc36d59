import { z } from 'zod';
import { isoDateTime, requiredText } from './common.ts';

export const ROLES = ['admin', 'analyst', 'viewer'] as const;
export const roleSchema = z
  .enum(ROLES)
  .describe('admin — пользователи и настройки; analyst — работа; viewer — только чтение');
export type Role = z.infer<typeof roleSchema>;

export const ROLE_LABELS: Record<Role, string> = {
  admin: 'Администратор',
  analyst: 'Аналитик',
  viewer: 'Наблюдатель',
};

/** OAuth2 password grant form, exactly as the seed sends it (form-urlencoded). */
export const loginBodySchema = z.object({
  grant_type: z.literal('password').default('password'),
  username: requiredText(254).describe('E-mail пользователя'),
  password: z.string().min(1, { error: 'Обязательное поле' }).max(128),
  scope: z.string().optional().default(''),
  client_id: z.string().optional().default(''),
  client_secret: z.string().optional().default(''),
});
export type LoginBody = z.input<typeof loginBodySchema>;

export const tokenResponseSchema = z.object({
  access_token: z.string().describe('Непрозрачный токен сессии'),
  token_type: z.literal('bearer'),
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

export const organisationSchema = z.object({ id: z.string(), name: z.string() });

export const userSchema = z.object({
  id: z.string(),
  email: z.string(),
  fullName: z.string(),
  role: roleSchema,
  isStaff: z.boolean().describe('Сотрудник платформы (импорт источников, новости, исходящая почта)'),
  emailVerified: z.boolean(),
  organisation: organisationSchema,
  createdAt: isoDateTime,
});
export type User = z.infer<typeof userSchema>;

export const meResponseSchema = z.object({ user: userSchema });
export type MeResponse = z.infer<typeof meResponseSchema>;
