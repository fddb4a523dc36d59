import { z } from 'zod';

/**
 * Health checks for load balancers and service managers (`/api/v1/health/live`, `/ready`): public,
 * cheap enough to be called every second.
 */

export const healthLiveResponseSchema = z.object({
  status: z.literal('ok').describe('Процесс отвечает'),
});
export type HealthLiveResponse = z.infer<typeof healthLiveResponseSchema>;

export const HEALTH_PARTS = ['database', 'migrations', 'jobs'] as const;
export type HealthPart = (typeof HEALTH_PARTS)[number];

export const healthReadyResponseSchema = z.object({
  status: z.literal('ready'),
  checks: z
    .object({
      database: z.literal('ok').describe('База данных отвечает'),
      migrations: z.literal('ok').describe('Все миграции этой версии применены'),
      jobs: z.literal('ok').describe('Очередь фоновых задач запущена'),
    })
    .describe('Каждая часть; при 503 неисправные перечислены в fieldErrors (field — имя части)'),
});
export type HealthReadyResponse = z.infer<typeof healthReadyResponseSchema>;
