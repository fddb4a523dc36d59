import { z } from 'zod';
import { isoDateTime } from './common.ts';
import { itemKindSchema } from './monitoring-items.ts';

/**
 * One search (`GET /api/v1/search?q=`, the search box in the app header): a VIN or its part, a
 * document, contract or registration number, a label or a one-time check number, across the
 * organisation's items, events, pledge registry, packages and one-time checks, grouped by kind.
 */

export const SEARCH_KINDS = ['items', 'events', 'pledgeEvents', 'packages', 'oneTimeChecks'] as const;
export const searchKindSchema = z.enum(SEARCH_KINDS);
export type SearchKind = z.infer<typeof searchKindSchema>;
export const SEARCH_KIND_LABELS: Record<SearchKind, string> = {
  items: 'Объекты мониторинга',
  events: 'События',
  pledgeEvents: 'Реестр уведомлений о залоге',
  packages: 'Пакеты уведомлений',
  oneTimeChecks: 'Разовые проверки',
};

/** Fewest letters or digits a search needs: the trigram indexes find nothing shorter. */
export const SEARCH_MIN_LENGTH = 3;
export const SEARCH_MAX_LENGTH = 100;
/** A group's count stops here («1000+»): counting a frequent term's every match is the slow part. */
export const SEARCH_COUNT_CAP = 1000;
/** Results shown per group by default and at most. */
export const SEARCH_GROUP_LIMIT = 5;
export const SEARCH_GROUP_LIMIT_MAX = 20;

/** The letters and digits of a query (spaces, dashes and «№» are how people type numbers, not part of them). */
export const searchSignificant = (query: string): string => query.replace(/[^\p{L}\p{N}]+/gu, '');

export const searchQuerySchema = z.object({
  q: z
    .string({ error: 'Введите, что искать' })
    .trim()
    .max(SEARCH_MAX_LENGTH, { error: `Не длиннее ${SEARCH_MAX_LENGTH} символов` })
    .refine((value) => searchSignificant(value).length >= SEARCH_MIN_LENGTH, {
      error: `Введите хотя бы ${SEARCH_MIN_LENGTH} буквы или цифры`,
    })
    .describe('VIN или его часть, номер документа, договора, регистрации, метка или номер разовой проверки'),
  limit: z.coerce
    .number({ error: 'Число результатов — целое число' })
    .int({ error: 'Число результатов — целое число' })
    .min(1, { error: 'Число результатов — от 1' })
    .max(SEARCH_GROUP_LIMIT_MAX, { error: `Число результатов — не больше ${SEARCH_GROUP_LIMIT_MAX}` })
    .default(SEARCH_GROUP_LIMIT)
    .describe('Сколько результатов показать в каждой группе'),
});
export type SearchQuery = z.input<typeof searchQuerySchema>;

export const searchHitSchema = z.object({
  id: z.string().describe('Идентификатор найденного (объекта, события, уведомления, пакета, проверки)'),
  title: z.string().describe('Что найдено: VIN, номер документа, договора, пакета или проверки'),
  details: z.string().nullable().describe('Пояснение: метка, договор, статус, дата'),
  itemId: z.string().nullable().describe('events: объект события'),
  itemKind: itemKindSchema.nullable().describe('items, events: vin или document'),
  at: isoDateTime.nullable().describe('Когда: событие обнаружено, проверка выполнена, пакет создан'),
});
export type SearchHit = z.infer<typeof searchHitSchema>;

export const searchGroupSchema = z.object({
  kind: searchKindSchema,
  label: z.string(),
  total: z.number().int().describe(`Найдено (не больше ${SEARCH_COUNT_CAP})`),
  more: z.boolean().describe(`true — найдено больше, чем total (счёт остановлен на ${SEARCH_COUNT_CAP})`),
  hits: z.array(searchHitSchema),
});
export type SearchGroup = z.infer<typeof searchGroupSchema>;

export const searchResponseSchema = z.object({
  query: z.string(),
  groups: z.array(searchGroupSchema).describe('Все виды по порядку, в том числе пустые'),
});
export type SearchResponse = z.infer<typeof searchResponseSchema>;
