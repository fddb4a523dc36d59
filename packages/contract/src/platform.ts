import { z } from 'zod';
import { isoDateTime } from './common.ts';

/** `GET /api/v1/build/info` answers with the build identifier itself, a JSON string. */
export const buildInfoResponseSchema = z
  .string()
  .describe('Непрозрачный идентификатор сборки: меняется с каждой сборкой, коммит не раскрывает');

export const MAIL_STATUSES = ['queued', 'sent', 'stored', 'failed'] as const;
export const outboxMailSchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  status: z.enum(MAIL_STATUSES).describe('stored — SMTP не настроен, письмо только в исходящих'),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: isoDateTime,
  sentAt: isoDateTime.nullable(),
});
export type OutboxMail = z.infer<typeof outboxMailSchema>;
export const outboxResponseSchema = z.object({ items: z.array(outboxMailSchema), total: z.number().int() });
export const outboxQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(25),
  to: z.string().trim().max(254).optional().describe('Фильтр по адресату'),
});
