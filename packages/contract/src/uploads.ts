import { z } from 'zod';
import { isoDateTime, PAGE_SIZE_MAX } from './common.ts';
import { documentTypeCodeSchema, itemKindSchema } from './monitoring-items.ts';

/**
 * File uploads (`/monitoring/upload/table`, `/monitoring/uploads-history`). Lifecycle:
 * received → validating → validated (preview; waits for confirm) → importing → done | done_with_errors;
 * any step → failed; validated → cancelled. An upload whose columns the server cannot map with
 * certainty waits in needs_mapping until POST …/mapping (then received again); needs_mapping and
 * validated accept a new mapping or another sheet, and validation runs again.
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
  'needs_mapping',
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
  needs_mapping: 'Ждёт сопоставления столбцов',
  validating: 'Проверяется',
  validated: 'Проверен, ждёт подтверждения',
  importing: 'Загружается',
  done: 'Загружен',
  done_with_errors: 'Загружен с ошибками',
  failed: 'Ошибка',
  cancelled: 'Отменён',
};
/** Statuses that wait for the user (the preview, the mapping step): the screen does not poll them. */
export const UPLOAD_WAITING_STATUSES: readonly UploadStatus[] = ['needs_mapping', 'validated'];
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
    skipped: z
      .number()
      .int()
      .describe(
        'Пропущенные строки без идентификатора: итоги («Итого», «Всего»), примечания, строки филиалов',
      ),
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

export const UPLOAD_COLUMN_MATCHES = ['title', 'synonym', 'remembered', 'chosen'] as const;

export const uploadFileColumnSchema = z.object({
  index: z.number().int().describe('Номер столбца в файле, с 0'),
  header: z.string().describe('Заголовок столбца в файле (пусто — без заголовка)'),
  samples: z.array(z.string()).describe('Первые значения столбца (до трёх)'),
  field: z.string().nullable().describe('Поле, в которое загружается столбец; null — не загружать'),
  match: z
    .enum(UPLOAD_COLUMN_MATCHES)
    .nullable()
    .describe(
      'Как выбрано поле: title — заголовок шаблона; synonym — угадано по привычному названию; remembered — как в прошлый раз; chosen — выбрано пользователем',
    ),
  ambiguous: z.boolean().describe('Другой столбец тоже похож на это поле'),
});
export type UploadFileColumn = z.infer<typeof uploadFileColumnSchema>;

export const uploadFieldSchema = z.object({
  field: z.string(),
  title: z.string(),
  key: z.boolean().describe('Идентификатор строки: нужен хотя бы один такой столбец'),
});
export type UploadField = z.infer<typeof uploadFieldSchema>;

export const uploadSheetSchema = z.object({
  index: z.number().int().describe('Номер листа книги, с 0'),
  name: z.string(),
});

export const uploadDetailSchema = uploadSchema.extend({
  columns: z.array(uploadColumnSchema).describe('Распознанные столбцы'),
  ignoredColumns: z.array(z.string()).describe('Заголовки файла, которые не распознаны и пропущены'),
  headerRow: z
    .number()
    .int()
    .nullable()
    .describe('Строка файла с заголовками; строки выше пропущены (null — файл ещё не прочитан)'),
  skippedAbove: z
    .string()
    .nullable()
    .describe('«Строки 1–3 пропущены: заголовок найден в строке 4»; null — заголовок в первой строке'),
  sheets: z.array(uploadSheetSchema).describe('Листы книги XLSX (пусто для CSV)'),
  sheet: z.number().int().nullable().describe('Прочитанный лист книги'),
  fileColumns: z
    .array(uploadFileColumnSchema)
    .describe('Столбцы файла: заголовок, примеры значений и поле, в которое каждый загружается'),
  fields: z.array(uploadFieldSchema).describe('Поля, которые можно выбрать для столбца'),
  mapping: z.object({
    source: z
      .enum(['auto', 'remembered', 'chosen'])
      .describe(
        'auto — по заголовкам; remembered — запомнено с прошлого файла с таким же заголовком; chosen — выбрано',
      ),
    question: z
      .string()
      .nullable()
      .describe('Почему нужно сопоставить столбцы (статус needs_mapping); null — вопросов нет'),
  }),
  skippedRows: z
    .array(z.object({ rowNumber: z.number().int(), text: z.string() }))
    .describe('Первые пропущенные строки после заголовка (итоги, примечания), до 10'),
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

export const uploadMappingBodySchema = z.object({
  columns: z
    .array(
      z.object({
        column: z
          .number({ error: 'Номер столбца: целое число' })
          .int({ error: 'Номер столбца: целое число' })
          .min(0, { error: 'Номер столбца: от 0' })
          .describe('Номер столбца файла, с 0'),
        field: z
          .string({ error: 'Поле: строка или null' })
          .max(100)
          .nullable()
          .describe('Поле из fields загрузки; null — не загружать'),
      }),
      { error: 'Укажите сопоставление столбцов' },
    )
    .max(256, { error: 'Не больше 256 столбцов' })
    .describe('Поле для столбцов файла; столбцы, которых нет в списке, не загружаются'),
});
export type UploadMappingBody = z.infer<typeof uploadMappingBodySchema>;

export const uploadSheetBodySchema = z.object({
  sheet: z
    .number({ error: 'Лист: целое число' })
    .int({ error: 'Лист: целое число' })
    .min(0, { error: 'Лист: от 0' })
    .describe('Номер листа книги, с 0'),
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
