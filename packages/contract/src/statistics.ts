import { z } from 'zod';
import { eventTypeSchema, sourceTypeSchema } from './checks.ts';
import { calendarDateSchema, isCalendarDate } from './dates.ts';
import { itemKindSchema } from './monitoring-items.ts';
import { DELIVERY_STATUSES } from './notifications.ts';

/**
 * Statistics (`/monitoring/statistics`, `POST /api/v1/monitoring/statistics/data`): series over a
 * period of Moscow calendar days, grouped by day, week (Monday to Sunday) or month. Every bucket of
 * the period is present; a bucket without data has zeros.
 */

export const STATISTICS_TIMEZONE = 'Europe/Moscow';
export const STATISTICS_GROUPINGS = ['day', 'week', 'month'] as const;
export const statisticsGroupingSchema = z
  .enum(STATISTICS_GROUPINGS, { error: 'Группировка: day, week или month' })
  .describe('day — по дням; week — по неделям (пн–вс); month — по месяцам; по московскому времени');
export type StatisticsGrouping = z.infer<typeof statisticsGroupingSchema>;
export const STATISTICS_GROUPING_LABELS: Record<StatisticsGrouping, string> = {
  day: 'По дням',
  week: 'По неделям',
  month: 'По месяцам',
};

/** The longest period one request may cover (two years and a day), in days. */
export const STATISTICS_MAX_DAYS = 732;

/** A Moscow calendar day, ГГГГ-ММ-ДД. */
export const moscowDateSchema = calendarDateSchema.describe('Календарный день по Москве, ГГГГ-ММ-ДД');

export const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/** Checks a period of days: `to` not before `from`, at most `maxDays` days. */
export function periodIssues(
  period: { from?: string; to?: string },
  maxDays = STATISTICS_MAX_DAYS,
): { field: 'from' | 'to'; message: string }[] {
  if (!period.from || !period.to || !isCalendarDate(period.from) || !isCalendarDate(period.to)) {
    return [];
  }
  const span = daysBetween(period.from, period.to);
  if (span < 0) {
    return [{ field: 'to', message: 'Конец периода раньше начала' }];
  }
  if (span + 1 > maxDays) {
    return [{ field: 'to', message: `Период не длиннее ${maxDays} дней` }];
  }
  return [];
}

export const statisticsBodySchema = z
  .object({
    from: moscowDateSchema.describe('Первый день периода (по Москве), включительно'),
    to: moscowDateSchema.describe('Последний день периода (по Москве), включительно'),
    grouping: statisticsGroupingSchema.default('day'),
    eventTypes: z.array(eventTypeSchema).max(50).optional().describe('Только эти типы событий (ряд событий)'),
    sources: z.array(sourceTypeSchema).max(20).optional().describe('Только события этих источников'),
    itemKind: itemKindSchema
      .optional()
      .describe('Только объекты этого вида (события, портфель, разовые проверки)'),
    label: z
      .string()
      .trim()
      .max(200, { error: 'Максимальная длина — 200 симв.' })
      .optional()
      .describe('Метка объекта содержит эту строку, без учёта регистра (события и портфель)'),
  })
  .superRefine((body, context) => {
    for (const issue of periodIssues(body)) {
      context.addIssue({ code: 'custom', path: [issue.field], message: issue.message });
    }
  });
export type StatisticsBody = z.input<typeof statisticsBodySchema>;
export type StatisticsQuery = z.output<typeof statisticsBodySchema>;

const count = z.number().int().min(0);
export const deliveryCountsSchema = z.object(
  Object.fromEntries(DELIVERY_STATUSES.map((status) => [status, count])) as Record<
    (typeof DELIVERY_STATUSES)[number],
    typeof count
  >,
);
export type DeliveryCounts = z.infer<typeof deliveryCountsSchema>;

export const statisticsPointSchema = z.object({
  bucket: z.string().describe('Первый день интервала в пределах периода, ГГГГ-ММ-ДД (МСК)'),
  bucketEnd: z.string().describe('Последний день интервала в пределах периода, включительно'),
  events: count.describe('Событий всего'),
  eventsByType: z.record(z.string(), count).describe('Событий по типам (все типы ряда, нули включены)'),
  itemsMonitored: count.describe(
    'Объектов в портфеле на конец интервала: добавлены до его конца и не в архиве',
  ),
  itemsAdded: count.describe('Объектов добавлено'),
  itemsArchived: count.describe('Объектов переведено в архив'),
  checkRuns: count.describe('Регулярных проверок запущено'),
  checkRunItems: count.describe('Объектов проверено регулярными проверками'),
  oneTimeChecks: count.describe('Разовых проверок'),
  uploads: count.describe('Загрузок файлов'),
  uploadRows: count.describe('Строк в загруженных файлах'),
  uploadRowsAccepted: count,
  uploadRowsRejected: count,
  deliveries: deliveryCountsSchema.describe('Уведомлений по статусу (по дню создания)'),
  spend: z
    .number()
    .min(0)
    .optional()
    .describe('Расход на запросы к поставщикам, ₽ (все источники; только администраторам)'),
});
export type StatisticsPoint = z.infer<typeof statisticsPointSchema>;

export const statisticsTotalsSchema = statisticsPointSchema
  .omit({ bucket: true, bucketEnd: true, itemsMonitored: true })
  .extend({
    itemsMonitoredStart: count.describe('Объектов в портфеле в начале периода'),
    itemsMonitoredEnd: count.describe('Объектов в портфеле в конце периода'),
    deliveriesTotal: count,
  });
export type StatisticsTotals = z.infer<typeof statisticsTotalsSchema>;

export const statisticsResponseSchema = z.object({
  from: z.string(),
  to: z.string(),
  grouping: statisticsGroupingSchema,
  timezone: z.literal(STATISTICS_TIMEZONE),
  eventTypes: z.array(eventTypeSchema).describe('Типы событий ряда, в порядке убывания числа событий'),
  points: z.array(statisticsPointSchema),
  totals: statisticsTotalsSchema,
});
export type StatisticsResponse = z.infer<typeof statisticsResponseSchema>;
