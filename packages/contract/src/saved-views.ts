import { z } from 'zod';
import { isoDateTime, requestExamples, requiredText } from './common.ts';

/**
 * Saved views: a user's named filters and sort of a list (objects, events, the pledge registry),
 * stored as the list's own URL query string. Private to the user, within the organisation.
 */

export const SAVED_VIEW_LISTS = ['items', 'events', 'registry'] as const;
export type SavedViewList = (typeof SAVED_VIEW_LISTS)[number];

/** Views a user keeps per list: a menu, not a store. */
export const SAVED_VIEWS_PER_LIST_MAX = 50;
export const SAVED_VIEW_NAME_MAX = 100;
/** The longest query string a view keeps: far above any real set of filters. */
export const SAVED_VIEW_QUERY_MAX = 2000;

/**
 * The query parameters a view of each list keeps: its filters and sort, not the page or an open
 * record. Any other key is dropped when a view is saved, so an opened view never carries stale state.
 */
export const SAVED_VIEW_PARAMS = {
  items: ['entity', 'status', 'search', 'sort', 'order'],
  events: ['type', 'severity', 'source', 'read', 'from', 'to', 'search', 'itemId', 'runId', 'sort', 'order'],
  registry: ['kind', 'status', 'from', 'to', 'lapsing', 'vin', 'pledgor', 'registrationNumber'],
} as const satisfies Record<SavedViewList, readonly string[]>;

/**
 * A query string with only the list's view keys, non-empty, in the order given: what a view stores.
 * The web calls it before saving, the server again on the way in.
 */
export function savedViewQuery(list: SavedViewList, query: string): string {
  const allowed: readonly string[] = SAVED_VIEW_PARAMS[list];
  const kept = new Map<string, string>();
  // Split by hand (the contract has no URLSearchParams): values stay encoded as the browser wrote them.
  for (const pair of (query.startsWith('?') ? query.slice(1) : query).split('&')) {
    const eq = pair.indexOf('=');
    const key = eq < 0 ? pair : pair.slice(0, eq);
    const value = eq < 0 ? '' : pair.slice(eq + 1);
    if (allowed.includes(key) && value !== '' && !kept.has(key)) {
      kept.set(key, value);
    }
  }
  return [...kept].map(([key, value]) => `${key}=${value}`).join('&');
}

const listSchema = z
  .enum(SAVED_VIEW_LISTS, { error: 'Неизвестный список: items, events или registry' })
  .describe('Список: items — объекты мониторинга, events — события, registry — реестр уведомлений о залоге');

const queryField = z
  .string({ error: 'Укажите строку запроса списка' })
  .max(SAVED_VIEW_QUERY_MAX, { error: `Слишком много фильтров: не больше ${SAVED_VIEW_QUERY_MAX} символов` })
  .describe(
    'Строка запроса списка без «?» (фильтры и сортировка, как в адресе страницы); ключи, которых у списка нет, отбрасываются',
  );

const nameField = requiredText(SAVED_VIEW_NAME_MAX).describe(
  'Название вида, уникальное в списке пользователя',
);

export const savedViewSchema = z.object({
  id: z.uuid(),
  list: listSchema,
  name: z.string(),
  query: z.string().describe('Строка запроса списка без «?»'),
  isDefault: z.boolean().describe('Открывается, когда список открыт без параметров'),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type SavedView = z.infer<typeof savedViewSchema>;

export const savedViewsQuerySchema = z.object({ list: listSchema });

export const savedViewsResponseSchema = z.object({ items: z.array(savedViewSchema) });
export type SavedViewsResponse = z.infer<typeof savedViewsResponseSchema>;

export const createSavedViewBodySchema = z
  .object({
    list: listSchema,
    name: nameField,
    query: queryField,
    isDefault: z.boolean().optional().describe('Сделать видом по умолчанию (прежний перестаёт им быть)'),
  })
  .meta(
    requestExamples({ list: 'events', name: 'Критичные за неделю', query: 'severity=critical&read=false' }),
  );
export type CreateSavedViewBody = z.infer<typeof createSavedViewBodySchema>;

export const updateSavedViewBodySchema = z
  .object({
    name: nameField.optional(),
    query: queryField.optional(),
    isDefault: z.boolean().optional().describe('true — вид по умолчанию; false — без вида по умолчанию'),
  })
  .meta(requestExamples({ name: 'Критичные' }, { isDefault: true }));
export type UpdateSavedViewBody = z.infer<typeof updateSavedViewBodySchema>;
