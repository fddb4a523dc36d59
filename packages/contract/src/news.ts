import { z } from 'zod';
import { isoDateTime, paginated, requiredText } from './common.ts';
import { VALIDATION_MESSAGES as M } from './messages.ts';

export const NEWS_TITLE_MAX = 200;
export const NEWS_BODY_MAX = 20_000;
export const NEWS_PAGE_SIZE_MAX = 50;
export const NEWS_READ_IDS_MAX = 200;
export const NEWS_STAFF_ONLY_MESSAGE = 'Публиковать и изменять новости могут только сотрудники платформы';
export const NEWS_NOT_FOUND_MESSAGE = 'Новость не найдена';

export const newsItemSchema = z.object({
  id: z.string(),
  title: z.string(),
  body: z.string().describe('Текст в Markdown; клиент показывает его без HTML-разметки'),
  pinned: z.boolean().describe('Закреплена вверху списка'),
  draft: z.boolean().describe('Черновик: виден только сотрудникам платформы'),
  publishedAt: isoDateTime.nullable().describe('Когда опубликована; у неопубликованного черновика — null'),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
  authorName: z.string().nullable().describe('Автор (сотрудник платформы)'),
  read: z.boolean().describe('Текущий пользователь уже прочитал новость'),
});
export type NewsItem = z.infer<typeof newsItemSchema>;

export const newsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1).describe('Номер страницы, с 1'),
  pageSize: z.coerce.number().int().min(1).max(NEWS_PAGE_SIZE_MAX).default(10).describe('Размер страницы'),
});
export type NewsQuery = z.input<typeof newsQuerySchema>;

export const newsPageSchema = paginated(newsItemSchema).extend({
  unreadCount: z.number().int().describe('Непрочитанных новостей у пользователя всего'),
});
export type NewsPage = z.infer<typeof newsPageSchema>;

export const newsUnreadCountResponseSchema = z.object({
  count: z.number().int().describe('Непрочитанных опубликованных новостей'),
});
export type NewsUnreadCountResponse = z.infer<typeof newsUnreadCountResponseSchema>;

export const markNewsReadBodySchema = z
  .object({
    all: z.boolean().optional().describe('Отметить прочитанными все опубликованные новости'),
    ids: z
      .array(z.uuid({ error: 'Неверный идентификатор новости' }), {
        error: 'Ожидается список идентификаторов',
      })
      .max(NEWS_READ_IDS_MAX, { error: `Не больше ${NEWS_READ_IDS_MAX} новостей за раз` })
      .optional()
      .describe('Отметить прочитанными эти новости'),
  })
  .refine((body) => body.all === true || (body.ids?.length ?? 0) > 0, {
    error: 'Укажите новости или all: true',
    path: ['ids'],
  });
export type MarkNewsReadBody = z.infer<typeof markNewsReadBodySchema>;

export const markNewsReadResponseSchema = z.object({
  marked: z.number().int().describe('Сколько новостей отмечено прочитанными сейчас'),
  unreadCount: z.number().int().describe('Сколько осталось непрочитанных'),
});
export type MarkNewsReadResponse = z.infer<typeof markNewsReadResponseSchema>;

const newsTitleField = requiredText(NEWS_TITLE_MAX).describe('Заголовок');
const newsBodyField = z
  .string({ error: M.required })
  .max(NEWS_BODY_MAX, { error: M.maxLength(NEWS_BODY_MAX) })
  .refine((value) => value.trim().length > 0, { error: M.required })
  .describe('Текст в Markdown');

export const createNewsBodySchema = z.object({
  title: newsTitleField,
  body: newsBodyField,
  pinned: z.boolean().optional().default(false),
  draft: z.boolean().optional().default(false).describe('Сохранить как черновик, не публикуя'),
});
export type CreateNewsBody = z.input<typeof createNewsBodySchema>;

export const updateNewsBodySchema = z.object({
  title: newsTitleField.optional(),
  body: newsBodyField.optional(),
  pinned: z.boolean().optional(),
  draft: z.boolean().optional().describe('false публикует черновик'),
});
export type UpdateNewsBody = z.infer<typeof updateNewsBodySchema>;

export const newsIdParamsSchema = z.object({ id: z.uuid({ error: 'Неверный идентификатор новости' }) });
