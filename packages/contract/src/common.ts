import { z } from 'zod';
import { VALIDATION_MESSAGES as M } from './messages.ts';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './password-rules.ts';

/**
 * Request examples for the OpenAPI document: `.meta(requestExamples(body, …))` on a request body
 * schema. Written as `x-examples`, which @fastify/swagger moves to the media type's `examples`,
 * because zod leaves a schema's own `examples` out of an input schema that transforms.
 * openapi.test.ts checks that each example passes the schema.
 */
export const requestExamples = (...values: unknown[]) => ({
  'x-examples': Object.fromEntries(values.map((value, index) => [`example${index + 1}`, { value }])),
});

/** A required, trimmed text field with the seed's Russian messages. */
export const requiredText = (max = 255) =>
  z
    .string({ error: M.required })
    .trim()
    .min(1, { error: M.required })
    .max(max, { error: M.maxLength(max) });

export const emailField = z
  .string({ error: M.required })
  .trim()
  .min(1, { error: M.required })
  .max(254, { error: M.maxLength(254) })
  .pipe(z.email({ error: M.email }))
  .transform((value) => value.toLowerCase());

/**
 * Length rules of a new password (OWASP ASVS 4.0 2.1.1–2.1.2). The server also refuses common and
 * easily guessed passwords and the user's e-mail; that check needs a large dictionary, so it runs
 * only on the server (apps/server/src/lib/password-policy.ts).
 */
export { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './password-rules.ts';
export const passwordField = z
  .string({ error: M.required })
  // An empty field is a missing answer, not a too-short password; abort so only that is said.
  .min(1, { error: M.required, abort: true })
  .min(PASSWORD_MIN_LENGTH, { error: M.minLength(PASSWORD_MIN_LENGTH) })
  .max(PASSWORD_MAX_LENGTH, { error: M.maxLength(PASSWORD_MAX_LENGTH) });

/** The repeat of a new password in a form: empty is «Обязательное поле», like every other field. */
export const passwordConfirmationField = z.string({ error: M.required }).min(1, { error: M.required });

export const fieldErrorSchema = z.object({
  field: z.string().describe('Путь к полю через точку, например `new_password`'),
  message: z.string().describe('Сообщение на русском'),
});

/** The one JSON error shape every failing call returns. */
export const errorResponseSchema = z
  .object({
    statusCode: z.number().int(),
    code: z.string().describe('Машинный код ошибки, например `INVALID_CREDENTIALS`'),
    message: z.string().describe('Сообщение для пользователя на русском'),
    fieldErrors: z.array(fieldErrorSchema).optional().describe('Ошибки по полям (для 422)'),
  })
  .describe('Ошибка');
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

export const messageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;

export const PAGE_SIZE_MAX = 500;
export const paginationQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1).describe('Номер страницы, с 1'),
  pageSize: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(25).describe('Размер страницы'),
});
export type PaginationQuery = z.infer<typeof paginationQuerySchema>;

export const paginated = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number().int().describe('Всего записей по фильтру') });

export const isoDateTime = z.string().describe('Дата и время в ISO 8601 (UTC)');

export const uuid = z.string().uuid();
