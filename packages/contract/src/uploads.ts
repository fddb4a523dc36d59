import { z } from 'zod';
import { isoDateTime, PAGE_SIZE_MAX } from './common.ts';
import { documentTypeCodeSchema, itemKindSchema } from './monitoring-items.ts';

/**
 * File uploads (`/monitoring/upload/table`, `/monitoring/uploads-history`). Lifecycle:
 * received → validating → validated (preview; waits for confirm) → importing → done | done_with_errors;
 * any step → failed; validated → cancelled.
 */

export const UPLOAD_KINDS = ['items', 'pledge_events'] as const;
export const uploadKindSchema = z
  .enum(UPLOAD_KINDS, { error: 'Вид загрузки: items или pledge_events' })
  .describe('items — объекты мониторинга; pledge_events — события залога');
export type UploadKind = z.infer<typeof uploadKindSchema>;
export const UPLOAD_KIND_LABELS: Record<UploadKind, string> = {
  items: 'Объекты мониторинга',
  pledge_events: 'События залога',
};

export const UPLOAD_STATUSES = [
  'received',
  'validating',
  'validated',
  'importing',
  'done',
  'done_with_errors',
  'failed',
  'cancelled',
] as const;
export const uploadStatusSchema = z.enum(UPLOAD_STATUSES);
export type UploadStatus = z.infer<typeof uploadStatusSchema>;
export const UPLOAD_STATUS_LABELS: Record<UploadStatus, string> = {
  received: 'Получен',
  validating: 'Проверяется',
  validated: 'Проверен, ждёт подтверждения',
  importing: 'Загружается',
  done: 'Загружен',
  done_with_errors: 'Загружен с ошибками',
  failed: 'Ошибка',
  cancelled: 'Отменён',
};
/** Statuses after which nothing changes any more: the screen stops polling. */
export const UPLOAD_FINAL_STATUSES: readonly UploadStatus[] = [
  'done',
  'done_with_errors',
  'failed',
  'cancelled',
];

export const UPLOAD_FORMATS = ['csv', 'xlsx'] as const;
export const uploadFormatSchema = z.enum(UPLOAD_FORMATS, { error: 'Формат: csv или xlsx' });
export type UploadFormat = z.infer<typeof uploadFormatSchema>;

/** Largest file accepted by default (the server's UPLOAD_MAX_BYTES can change it). */
export const UPLOAD_MAX_BYTES_DEFAULT = 200 * 1024 * 1024;

export const uploadCountsSchema = z
  .object({
    rows: z.number().int().describe('Строк данных в файле (без заголовка и пустых строк)'),
    accepted: z
      .number()
      .int()
      .describe('До импорта — строк к добавлению; после — добавлено новых объектов (без восстановленных)'),
    restored: z.number().int().describe('Объекты из архива, снова поставленные на мониторинг'),
    duplicates: z.number().int().describe('Уже на мониторинге или повтор строки в файле'),
    rejected: z.number().int().describe('Строки с ошибками (скачиваются файлом ошибок)'),
  })
  .describe('Счётчики строк');
export type UploadCounts = z.infer<typeof uploadCountsSchema>;

export const uploadProgressSchema = z.object({
  rowsProcessed: z.number().int().describe('Обработано строк файла'),
  percent: z
    .number()
    .nullable()
    .describe('Доля прочитанного файла при проверке, 0–100; 100 после проверки; null — ещё не начата'),
});

export const uploadSchema = z
  .object({
    id: z.string(),
    kind: uploadKindSchema,
    fileName: z.string(),
    fileSize: z.number().int().describe('Размер файла, байт'),
    format: uploadFormatSchema.nullable(),
    encoding: z.string().nullable().describe('utf-8 или windows-1251 (для CSV)'),
    delimiter: z.string().nullable().describe('Разделитель CSV: «;», «,» или табуляция'),
    status: uploadStatusSchema,
    statusLabel: z.string().describe('Статус по-русски'),
    autoConfirm: z.boolean().describe('Импорт сразу после проверки, без подтверждения'),
    progress: uploadProgressSchema,
    counts: uploadCountsSchema,
    errorMessage: z.string().nullable().describe('Почему загрузка не удалась (для failed)'),
    author: z.object({ id: z.string(), fullName: z.string() }).nullable(),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
    finishedAt: isoDateTime.nullable(),
  })
  .describe('Загрузка файла');
export type Upload = z.infer<typeof uploadSchema>;

export const uploadPreviewRowSchema = z.object({
  rowNumber: z.number().int().describe('Номер строки в файле (заголовок — строка 1)'),
  kind: itemKindSchema,
  documentType: documentTypeCodeSchema.nullable(),
  identifier: z.string(),
  displayIdentifier: z.string(),
  label: z.string().nullable(),
  contractNumber: z.string().nullable(),
  pledgorName: z.string().nullable(),
  warning: z.string().nullable().describe('Предупреждение (контрольная цифра VIN)'),
});
export type UploadPreviewRow = z.infer<typeof uploadPreviewRowSchema>;

export const uploadErrorRowSchema = z.object({
  rowNumber: z.number().int().describe('Номер строки в исходном файле'),
  field: z
    .string()
    .nullable()
    .describe('Столбец шаблона, к которому относится ошибка; null — строка целиком'),
  message: z.string().describe('Причина по-русски'),
  values: z.record(z.string(), z.string()).describe('Значения строки по столбцам шаблона, как в файле'),
});
export type UploadErrorRow = z.infer<typeof uploadErrorRowSchema>;

export const uploadColumnSchema = z.object({
  field: z.string().describe('Поле шаблона: vin, documentType, number, label, contractNumber, pledgorName'),
  title: z.string().describe('Заголовок столбца в шаблоне'),
  header: z.string().nullable().describe('Заголовок, найденный в файле; null — столбца в файле нет'),
});

export const uploadDetailSchema = uploadSchema.extend({
  columns: z.array(uploadColumnSchema).describe('Распознанные столбцы'),
  ignoredColumns: z.array(z.string()).describe('Заголовки файла, которые не распознаны и пропущены'),
  preview: z.array(uploadPreviewRowSchema).describe('Первые принятые строки (до 20)'),
  errors: z.array(uploadErrorRowSchema).describe('Первые отклонённые строки (до 20); все — в файле ошибок'),
});
export type UploadDetail = z.infer<typeof uploadDetailSchema>;

export const createUploadQuerySchema = z.object({
  kind: z.literal('items', { error: 'Вид загрузки: items' }).default('items'),
  autoConfirm: z
    .enum(['true', 'false'], { error: 'autoConfirm: true или false' })
    .default('false')
    .transform((value) => value === 'true')
    .describe('true — импортировать сразу после проверки, без подтверждения'),
});

export const uploadsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(25),
  kind: uploadKindSchema.optional(),
  status: uploadStatusSchema.optional(),
});
export type UploadsQuery = z.input<typeof uploadsQuerySchema>;

export const uploadsResponseSchema = z.object({
  items: z.array(uploadSchema),
  total: z.number().int(),
});
export type UploadsResponse = z.infer<typeof uploadsResponseSchema>;

export const uploadErrorRowsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(50),
});
export const uploadErrorRowsResponseSchema = z.object({
  items: z.array(uploadErrorRowSchema),
  total: z.number().int(),
});
export type UploadErrorRowsResponse = z.infer<typeof uploadErrorRowsResponseSchema>;

export const uploadFileQuerySchema = z.object({
  format: uploadFormatSchema.default('xlsx'),
});
export const uploadTemplateQuerySchema = uploadFileQuerySchema.extend({
  kind: z.literal('items', { error: 'Вид загрузки: items' }).default('items'),
});
