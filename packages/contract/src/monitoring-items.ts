import { DOCUMENT_TYPE_CODES, DOCUMENT_TYPES, type VinDecoded, validateVin } from '@pledgewatch/identifiers';
import { z } from 'zod';
import { isoDateTime, PAGE_SIZE_MAX, requestExamples } from './common.ts';

/**
 * The monitored portfolio: vehicles by VIN and pledgors by identity document
 * (`/monitoring/items`, hand entry on `/monitoring/upload/form`).
 */

export const ITEM_KINDS = ['vin', 'document'] as const;
export const itemKindSchema = z
  .enum(ITEM_KINDS, { error: 'Выберите vin или document' })
  .describe('vin — транспортное средство по VIN; document — залогодатель по документу');
export type ItemKind = z.infer<typeof itemKindSchema>;

export const ITEM_STATUSES = ['active', 'paused', 'archived'] as const;
export const itemStatusSchema = z
  .enum(ITEM_STATUSES, { error: 'Статус: active, paused или archived' })
  .describe('active — проверяется; paused — проверки приостановлены; archived — в архиве, не проверяется');
export type ItemStatus = z.infer<typeof itemStatusSchema>;
export const ITEM_STATUS_LABELS: Record<ItemStatus, string> = {
  active: 'На мониторинге',
  paused: 'Приостановлен',
  archived: 'В архиве',
};

export const ITEM_ORIGINS = ['form', 'upload', 'pledge', 'demo'] as const;
export const itemOriginSchema = z
  .enum(ITEM_ORIGINS)
  .describe('form — добавлен вручную; upload — из файла; pledge — из события залога; demo — демо-данные');
export type ItemOrigin = z.infer<typeof itemOriginSchema>;
export const ITEM_ORIGIN_LABELS: Record<ItemOrigin, string> = {
  form: 'Вручную',
  upload: 'Из файла',
  pledge: 'Из реестра залогов',
  demo: 'Демо-данные',
};

export const documentTypeCodeSchema = z
  .enum(DOCUMENT_TYPE_CODES, { error: 'Тип документа: выберите значение из списка' })
  .describe('passport_rf, driving_licence, pts, epts, sts, inn, ogrn, ogrnip');
/** Russian labels of document types, re-exported so screens need only the contract. */
export const DOCUMENT_TYPE_LABELS = DOCUMENT_TYPES;

/** Field lengths shared by hand entry, uploads and item edits. */
export const ITEM_TEXT_LIMITS = { label: 200, contractNumber: 100, pledgorName: 300 } as const;

export const vinDecodingSchema = z
  .object({
    wmi: z.string().describe('Код изготовителя (первые три символа)'),
    region: z.string().nullable().describe('Регион изготовителя по первому символу'),
    country: z.string().nullable().describe('Страна изготовителя'),
    manufacturer: z.string().nullable().describe('Марка / завод по WMI, если известны'),
    modelYear: z.number().int().nullable().describe('Модельный год по 10-му символу'),
    checkDigitValid: z.boolean().describe('Контрольная цифра (9-й символ) совпадает с расчётной'),
    checkDigitExpected: z.string().describe('Расчётная контрольная цифра'),
    warning: z
      .string()
      .nullable()
      .describe('Предупреждение о несовпадении контрольной цифры (не ошибка для автомобилей рынка РФ)'),
  })
  .describe('Расшифровка VIN');
export type VinDecoding = z.infer<typeof vinDecodingSchema>;

/** The one mapping of a decoded VIN to what the API answers (item card, one-time check). */
export function toVinDecoding(decoded: VinDecoded, warnings: readonly string[] = []): VinDecoding {
  return {
    wmi: decoded.wmi,
    region: decoded.region,
    country: decoded.country,
    manufacturer: decoded.manufacturer,
    modelYear: decoded.modelYear,
    checkDigitValid: decoded.checkDigit.valid,
    checkDigitExpected: decoded.checkDigit.expected,
    warning: warnings[0] ?? null,
  };
}

/** A stored VIN's decoding; null when it no longer validates. */
export function vinDecoding(identifier: string): VinDecoding | null {
  const result = validateVin(identifier);
  return result.ok ? toVinDecoding(result.decoded, result.warnings) : null;
}

export const monitoringItemSchema = z
  .object({
    id: z.string(),
    kind: itemKindSchema,
    identifier: z
      .string()
      .describe('Нормализованный идентификатор: VIN в верхнем регистре, номер документа без пробелов'),
    displayIdentifier: z.string().describe('Идентификатор для показа: «45 06 123456», «78 УС 123456»'),
    documentType: documentTypeCodeSchema.nullable().describe('Тип документа; null для VIN'),
    documentTypeLabel: z.string().nullable().describe('Название типа документа по-русски'),
    label: z.string().nullable().describe('Метка (например, марка и модель)'),
    contractNumber: z.string().nullable().describe('Номер договора'),
    pledgorName: z.string().nullable().describe('Залогодатель'),
    status: itemStatusSchema,
    origin: itemOriginSchema,
    uploadId: z.string().nullable().describe('Загрузка, из которой пришёл объект'),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
    archivedAt: isoDateTime.nullable(),
    lastCheckedAt: isoDateTime.nullable().describe('Время последней проверки; null — ещё не проверялся'),
    vin: vinDecodingSchema.nullable().describe('Расшифровка VIN; null для документов'),
  })
  .describe('Объект мониторинга');
export type MonitoringItem = z.infer<typeof monitoringItemSchema>;

export const ITEM_SORT_FIELDS = [
  'createdAt',
  'identifier',
  'label',
  'contractNumber',
  'lastCheckedAt',
] as const;
export const SORT_ORDERS = ['asc', 'desc'] as const;

export const itemsQuerySchema = z.object({
  entity: itemKindSchema.default('vin').describe('Вид объектов: vin или document'),
  page: z.coerce.number().int().min(1).default(1).describe('Номер страницы, с 1'),
  pageSize: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(25).describe('Размер страницы'),
  sort: z
    .enum(ITEM_SORT_FIELDS, {
      error: 'Сортировка: createdAt, identifier, label, contractNumber или lastCheckedAt',
    })
    .default('createdAt'),
  order: z.enum(SORT_ORDERS, { error: 'Порядок: asc или desc' }).default('desc'),
  search: z
    .string()
    .trim()
    .max(100, { error: 'Максимальная длина — 100 симв.' })
    .optional()
    .describe(
      'Подстрока идентификатора, метки или номера договора (без учёта регистра, пробелы и дефисы в номере не важны)',
    ),
  status: z
    .enum([...ITEM_STATUSES, 'all'], { error: 'Статус: active, paused, archived или all' })
    .optional()
    .describe('Фильтр по статусу; без него — все, кроме архивных; all — все'),
});
export type ItemsQuery = z.input<typeof itemsQuerySchema>;
export type ItemsQueryParsed = z.infer<typeof itemsQuerySchema>;

export const itemsResponseSchema = z.object({
  items: z.array(monitoringItemSchema),
  total: z.number().int().describe('Всего записей по фильтру'),
  totalIsEstimate: z
    .boolean()
    .describe(
      'total — оценка («около N»): поиск нашёл больше 10 000 записей и не пересчитывает их точно на каждой странице',
    ),
});
export type ItemsResponse = z.infer<typeof itemsResponseSchema>;

/** Only a guard against absurd input: the real length rule is checked per row, so one long cell refuses one row. */
const optionalText = (max: number) =>
  z
    .string({ error: 'Ожидается строка' })
    .max(5000, { error: 'Максимальная длина — 5000 симв.' })
    .nullable()
    .optional()
    .describe(`До ${max} симв.`);

/** Rows are checked one by one on the server: a bad row is refused with its reason, the rest are added. */
export const FORM_ROWS_MAX = 1000;

export const formVinRowSchema = z.object({
  vin: z.string({ error: 'VIN: обязательное поле' }).max(200).describe('VIN как введён или вставлен'),
  label: optionalText(ITEM_TEXT_LIMITS.label).describe('Метка'),
  contractNumber: optionalText(ITEM_TEXT_LIMITS.contractNumber).describe('Номер договора'),
  pledgorName: optionalText(ITEM_TEXT_LIMITS.pledgorName).describe('Залогодатель'),
});
export type FormVinRow = z.infer<typeof formVinRowSchema>;

export const formVinBodySchema = z
  .object({
    rows: z
      .array(formVinRowSchema)
      .min(1, { error: 'Добавьте хотя бы одну строку' })
      .max(FORM_ROWS_MAX, { error: `Не более ${FORM_ROWS_MAX} строк за один раз` })
      .describe('Одна или несколько строк (например, вставленных из Excel)'),
  })
  .meta(
    requestExamples({
      rows: [
        { vin: 'XTA210740P0100001', contractNumber: 'КД-2026/123', label: 'LADA Granta' },
        { vin: 'Z94CB41AAPR123456', contractNumber: 'КД-2026/124' },
      ],
    }),
  );
export type FormVinBody = z.infer<typeof formVinBodySchema>;

export const formDocRowSchema = z.object({
  documentType: z
    .string()
    .max(100)
    .nullable()
    .optional()
    .describe(
      'Код типа (passport_rf…) или название по-русски («Паспорт РФ», «ИНН»); пусто — определить по номеру',
    ),
  number: z
    .string({ error: 'Номер документа: обязательное поле' })
    .max(200)
    .describe('Серия и номер как введены'),
  label: optionalText(ITEM_TEXT_LIMITS.label).describe('Метка'),
  contractNumber: optionalText(ITEM_TEXT_LIMITS.contractNumber).describe('Номер договора'),
  pledgorName: optionalText(ITEM_TEXT_LIMITS.pledgorName).describe('Залогодатель'),
});
export type FormDocRow = z.infer<typeof formDocRowSchema>;

export const formDocBodySchema = z
  .object({
    rows: z
      .array(formDocRowSchema)
      .min(1, { error: 'Добавьте хотя бы одну строку' })
      .max(FORM_ROWS_MAX, { error: `Не более ${FORM_ROWS_MAX} строк за один раз` }),
  })
  .meta(
    requestExamples({
      rows: [
        {
          documentType: 'passport_rf',
          number: '4506 123456',
          pledgorName: 'Иванов Иван Иванович',
          contractNumber: 'КД-2026/123',
        },
      ],
    }),
  );
export type FormDocBody = z.infer<typeof formDocBodySchema>;

export const rowProblemSchema = z.object({
  rowNumber: z.number().int().describe('Номер строки в запросе, с 1'),
  field: z
    .string()
    .nullable()
    .describe('Поле строки (vin, documentType, number, label…); null — строка целиком'),
  message: z.string().describe('Причина по-русски'),
});
export type RowProblem = z.infer<typeof rowProblemSchema>;

export const addedItemSchema = z.object({ rowNumber: z.number().int(), item: monitoringItemSchema });

export const duplicateRowSchema = z.object({
  rowNumber: z.number().int(),
  identifier: z.string(),
  displayIdentifier: z.string(),
  reason: z
    .enum(['existing', 'in_request'])
    .describe('existing — уже на мониторинге; in_request — повтор строки этого же запроса'),
  message: z.string(),
  itemId: z.string().nullable().describe('Объект, который уже на мониторинге (для existing)'),
  firstRowNumber: z
    .number()
    .int()
    .nullable()
    .describe('Первая строка с этим идентификатором (для in_request)'),
});
export type DuplicateRow = z.infer<typeof duplicateRowSchema>;

export const addItemsResponseSchema = z
  .object({
    added: z.array(addedItemSchema).describe('Новые объекты'),
    restored: z.array(addedItemSchema).describe('Объекты из архива, снова поставленные на мониторинг'),
    duplicates: z.array(duplicateRowSchema).describe('Не добавлены: уже на мониторинге или повтор в запросе'),
    rejected: z.array(rowProblemSchema).describe('Отклонённые строки с причиной'),
    warnings: z.array(rowProblemSchema).describe('Принятые строки с предупреждением (контрольная цифра VIN)'),
    counts: z.object({
      rows: z.number().int(),
      added: z.number().int(),
      restored: z.number().int(),
      duplicates: z.number().int(),
      rejected: z.number().int(),
    }),
  })
  .describe('Итог добавления: что добавлено, что уже было и что отклонено');
export type AddItemsResponse = z.infer<typeof addItemsResponseSchema>;

const editableText = (max: number) =>
  z
    .string({ error: 'Ожидается строка' })
    .trim()
    .max(max, { error: `Максимальная длина — ${max} симв.` })
    .nullable()
    .optional()
    .transform((value) => (value === '' ? null : value));

export const updateItemBodySchema = z
  .object({
    label: editableText(ITEM_TEXT_LIMITS.label).describe('Метка; пустая строка или null — очистить'),
    contractNumber: editableText(ITEM_TEXT_LIMITS.contractNumber).describe('Номер договора'),
    pledgorName: editableText(ITEM_TEXT_LIMITS.pledgorName).describe('Залогодатель'),
    status: itemStatusSchema.optional().describe('Пауза, возобновление или архив'),
  })
  .describe('Изменяются только переданные поля');
export type UpdateItemBody = z.input<typeof updateItemBodySchema>;

export const bulkStatusBodySchema = z.object({
  ids: z
    .array(z.uuid({ error: 'Неверный идентификатор объекта' }))
    .min(1, { error: 'Выберите хотя бы один объект' })
    .max(FORM_ROWS_MAX, { error: `Не более ${FORM_ROWS_MAX} объектов за один раз` }),
  status: itemStatusSchema,
});
export type BulkStatusBody = z.infer<typeof bulkStatusBodySchema>;

export const bulkStatusResponseSchema = z.object({
  updated: z.number().int().describe('Сколько объектов получили новый статус'),
  notFound: z.array(z.string()).describe('Идентификаторы, которых нет в портфеле организации'),
});
export type BulkStatusResponse = z.infer<typeof bulkStatusResponseSchema>;
