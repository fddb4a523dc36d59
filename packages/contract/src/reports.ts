import { z } from 'zod';
import { eventTypeSchema, severitySchema, sourceTypeSchema } from './checks.ts';
import { ITEM_STATUSES, itemKindSchema, itemStatusSchema } from './monitoring-items.ts';
import { moscowDateSchema, periodIssues } from './statistics.ts';

/**
 * Reports (`/monitoring/report`, `GET /api/v1/monitoring/report`): one file per call, streamed as it
 * is read from the database. Dates in the file are «ДД.ММ.ГГГГ ЧЧ:ММ» Moscow time; CSV uses `;`.
 */

export const REPORT_KINDS = ['events', 'portfolio', 'one_time_checks', 'uploads'] as const;
export const reportKindSchema = z
  .enum(REPORT_KINDS, { error: 'Вид отчёта: events, portfolio, one_time_checks или uploads' })
  .describe(
    'events — события за период; portfolio — портфель с текущими находками; one_time_checks — разовые проверки за период; uploads — загрузки файлов',
  );
export type ReportKind = z.infer<typeof reportKindSchema>;
export const REPORT_KIND_LABELS: Record<ReportKind, string> = {
  events: 'События за период',
  portfolio: 'Портфель с текущими находками',
  one_time_checks: 'Разовые проверки за период',
  uploads: 'Загрузки файлов',
};
/** Kinds whose rows are taken from a period (portfolio is the portfolio as it is now). */
export const REPORT_KINDS_WITH_PERIOD: readonly ReportKind[] = ['events', 'one_time_checks', 'uploads'];

export const REPORT_FORMATS = ['xlsx', 'csv', 'pdf'] as const;
export const reportFormatSchema = z.enum(REPORT_FORMATS, { error: 'Формат: xlsx, csv или pdf' });
export type ReportFormat = z.infer<typeof reportFormatSchema>;

export const REPORT_ENCODINGS = ['utf-8', 'windows-1251'] as const;
export const reportEncodingSchema = z
  .enum(REPORT_ENCODINGS, { error: 'Кодировка: utf-8 или windows-1251' })
  .describe('Кодировка CSV: utf-8 (с BOM) или windows-1251');
export type ReportEncoding = z.infer<typeof reportEncodingSchema>;

/** A PDF is for reading and printing: it holds at most this many rows and says so. */
export const REPORT_PDF_ROW_LIMIT = 2000;
/** Longest period of a report, in days. */
export const REPORT_MAX_DAYS = 3660;

/** Response headers of a report (readable by the page that downloads it with fetch). */
export const REPORT_HEADERS = {
  /** Rows the report holds (for PDF: before the row limit). */
  rows: 'x-report-rows',
  /** A size estimate for a progress bar; the body is chunked, with no Content-Length. */
  estimatedBytes: 'x-report-estimated-bytes',
} as const;

const csvList = <T extends z.ZodType>(item: T) =>
  z.preprocess(
    (value) => (typeof value === 'string' ? value.split(',').filter(Boolean) : value),
    z.array(item).optional(),
  );

export const reportQuerySchema = z
  .object({
    kind: reportKindSchema,
    format: reportFormatSchema.default('xlsx'),
    encoding: reportEncodingSchema.default('utf-8'),
    from: moscowDateSchema.optional().describe('Первый день периода (МСК), включительно'),
    to: moscowDateSchema.optional().describe('Последний день периода (МСК), включительно'),
    type: csvList(eventTypeSchema).describe('events: типы событий через запятую'),
    severity: csvList(severitySchema).describe('events: важность через запятую'),
    source: csvList(sourceTypeSchema).describe('events: источники через запятую'),
    read: z
      .preprocess(
        (value) => (value === 'true' ? true : value === 'false' ? false : value),
        z.boolean().optional(),
      )
      .describe('events: true — прочитанные, false — непрочитанные'),
    itemKind: itemKindSchema.optional().describe('Вид объектов (events, portfolio, one_time_checks)'),
    status: csvList(itemStatusSchema).describe(
      'portfolio: статусы объектов через запятую; без него — все, кроме архивных',
    ),
    label: z
      .string()
      .trim()
      .max(200, { error: 'Максимальная длина — 200 симв.' })
      .optional()
      .describe('events, portfolio: метка объекта содержит строку'),
    // The events list's own filters, so the list downloads exactly what it shows.
    search: z
      .string()
      .trim()
      .max(100, { error: 'Максимальная длина — 100 симв.' })
      .optional()
      .describe('events: поиск по VIN/номеру документа, метке, номеру договора, как в списке событий'),
    itemId: z
      .uuid({ error: 'Неверный идентификатор объекта' })
      .optional()
      .describe('events: события объекта'),
    runId: z
      .uuid({ error: 'Неверный идентификатор проверки' })
      .optional()
      .describe('events: события проверки'),
  })
  .superRefine((query, context) => {
    if (query.kind === 'events' || query.kind === 'one_time_checks') {
      for (const field of ['from', 'to'] as const) {
        if (!query[field]) {
          context.addIssue({ code: 'custom', path: [field], message: 'Укажите период отчёта' });
        }
      }
    }
    if (Boolean(query.from) !== Boolean(query.to)) {
      context.addIssue({
        code: 'custom',
        path: [query.from ? 'to' : 'from'],
        message: 'Укажите начало и конец периода',
      });
    }
    for (const issue of periodIssues(query, REPORT_MAX_DAYS)) {
      context.addIssue({ code: 'custom', path: [issue.field], message: issue.message });
    }
  });
export type ReportQueryInput = z.input<typeof reportQuerySchema>;
export type ReportQuery = z.output<typeof reportQuerySchema>;

/** Default statuses of the portfolio report: what is on monitoring now. */
export const REPORT_DEFAULT_ITEM_STATUSES = ITEM_STATUSES.filter((status) => status !== 'archived');
