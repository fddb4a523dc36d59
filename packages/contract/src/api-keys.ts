import { z } from 'zod';
import { roleSchema } from './auth.ts';
import { isoDateTime, requestExamples, requiredText } from './common.ts';
import { calendarDateSchema } from './dates.ts';

/**
 * API keys (Настройки → Ключи API): how a bank's own systems call the API without a person's
 * password. A key is sent as `Authorization: Bearer pwk_…`, acts in its organisation with its role,
 * and cannot manage users or keys.
 */

/** Every key starts with this, so a log line or a leaked string is recognisable as one. */
export const API_KEY_PREFIX = 'pwk_';

/** Requests per minute a key may make unless its creator set another limit. */
export const API_KEY_DEFAULT_RATE_LIMIT = 600;

export const apiKeySchema = z.object({
  id: z.uuid(),
  name: z.string().describe('Название ключа (по нему ключ виден в журнале действий)'),
  role: roleSchema,
  prefix: z.string().describe('Начало ключа, чтобы отличать ключи; сам ключ не хранится'),
  rateLimitPerMinute: z.number().int().describe('Запросов в минуту'),
  createdAt: isoDateTime,
  createdBy: z.string().nullable().describe('Кто создал'),
  expiresAt: isoDateTime.nullable().describe('Срок действия; null — бессрочно'),
  lastUsedAt: isoDateTime.nullable().describe('Последнее использование (с точностью до минуты)'),
  revokedAt: isoDateTime.nullable(),
  status: z.enum(['active', 'expired', 'revoked']),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

export const apiKeysResponseSchema = z.object({ items: z.array(apiKeySchema) });

export const createApiKeyBodySchema = z
  .object({
    name: requiredText(100).describe('Например «АБС: выдача кредитов»'),
    role: roleSchema.describe('admin, analyst или viewer; ключ не управляет пользователями и ключами'),
    expiresOn: calendarDateSchema
      .nullable()
      .optional()
      .describe('Последний день действия; пусто — бессрочно'),
    rateLimitPerMinute: z
      .number({ error: 'Укажите число запросов в минуту' })
      .int({ error: 'Укажите целое число запросов в минуту' })
      .min(1, { error: 'Не меньше 1 запроса в минуту' })
      .max(10_000, { error: 'Не больше 10 000 запросов в минуту' })
      .optional()
      .describe(`Запросов в минуту; по умолчанию ${API_KEY_DEFAULT_RATE_LIMIT}`),
  })
  .meta(requestExamples({ name: 'АБС: выдача кредитов', role: 'analyst', expiresOn: '2027-12-31' }));
export type CreateApiKeyBody = z.infer<typeof createApiKeyBodySchema>;

export const createdApiKeySchema = apiKeySchema.extend({
  secret: z.string().describe('Ключ целиком: показывается один раз, сохраните его сразу'),
});
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;
