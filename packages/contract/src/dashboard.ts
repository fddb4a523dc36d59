import { z } from 'zod';
import {
  CHECK_RUN_STATUSES,
  CHECK_RUN_TRIGGERS,
  eventTypeSchema,
  failedSourceSchema,
  oneTimeCheckSummarySchema,
  severitySchema,
} from './checks.ts';
import { isoDateTime } from './common.ts';
import { itemKindSchema } from './monitoring-items.ts';

/** The home screen (`/`, `GET /api/v1/monitoring/dashboard`): what a collateral officer checks first. */

const count = z.number().int().min(0);

/** Days of failed deliveries the dashboard counts. */
export const DASHBOARD_FAILED_DELIVERY_DAYS = 7;
export const DASHBOARD_RECENT_CHECKS = 5;

export const dashboardResponseSchema = z.object({
  items: z.object({
    monitored: count.describe('Объектов на мониторинге и на паузе (без архива)'),
    byKind: z.array(
      z.object({
        kind: itemKindSchema,
        active: count,
        paused: count,
        archived: count,
      }),
    ),
  }),
  unreadEvents: z.object({
    total: count,
    byType: z
      .array(z.object({ type: eventTypeSchema, severity: severitySchema, count }))
      .describe('Непрочитанные по типу и важности, больше — выше'),
    bySeverity: z.array(z.object({ severity: severitySchema, count })).describe('От критической к низкой'),
  }),
  lastRun: z
    .object({
      id: z.string(),
      trigger: z.enum(CHECK_RUN_TRIGGERS),
      status: z.enum(CHECK_RUN_STATUSES),
      itemsTotal: count,
      itemsDone: count,
      eventsCreated: count,
      createdAt: isoDateTime,
      startedAt: isoDateTime.nullable(),
      finishedAt: isoDateTime.nullable(),
      failedSources: z
        .array(failedSourceSchema)
        .describe('Источники, не ответившие в этой проверке; пусто — все ответили'),
    })
    .nullable()
    .describe('Последняя регулярная проверка; null — проверок не было'),
  lastItemCheckAt: isoDateTime
    .nullable()
    .describe(
      'Когда объекты проверялись последний раз по данным самих объектов (их «Последняя проверка»), даже если запусков в журнале проверок нет (демонстрационные данные, импорт); null — ни один не проверялся',
    ),
  deliveries: z.object({
    failedRecent: count.describe(`Уведомлений с ошибкой за последние ${DASHBOARD_FAILED_DELIVERY_DAYS} дней`),
    failedTotal: count.describe('Уведомлений с ошибкой всего (как в журнале с фильтром «Ошибка»)'),
    since: isoDateTime.describe('Начало окна failedRecent'),
  }),
  recentOneTimeChecks: z.array(oneTimeCheckSummarySchema),
});
export type DashboardResponse = z.infer<typeof dashboardResponseSchema>;
