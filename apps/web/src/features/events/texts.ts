import { texts as shared } from '@/config/texts';

/**
 * The events feature's wording (`texts.events`); the shared words (app, common, errors, nav, pages) come from config/texts.ts.
 */
export const texts = {
  ...shared,
  events: {
    title: 'События',
    unread: (count: string) => `Непрочитанных: ${count}`,
    markPageRead: 'Прочитать все на странице',
    markedPage: 'События на странице отмечены прочитанными',
    markRead: 'Отметить прочитанным',
    markUnread: 'Отметить непрочитанным',
    empty: 'Событий пока нет. Они появятся после регулярной проверки, которая найдёт изменения.',
    emptyFiltered: 'Событий по этим условиям не найдено.',
    demo: 'ДЕМО',
    vin: 'VIN',
    contract: (number: string) => `договор ${number}`,
    firstCheck: 'при первой проверке',
    detectedAtCard: (at: string) => `${at} МСК`,
    columns: {
      item: 'Объект',
      type: 'Событие',
      severity: 'Важность',
      source: 'Источник',
      change: 'Было → стало',
      detectedAt: 'Обнаружено (МСК)',
    },
    filters: {
      search: 'VIN, документ, метка, договор',
      from: 'С даты',
      to: 'По дату',
      read: 'Прочтение',
      readAll: 'Все',
      readUnread: 'Непрочитанные',
      readRead: 'Прочитанные',
      type: 'Тип события',
      severity: 'Важность',
      source: 'Источник',
      allTypes: 'Все типы',
      allSeverities: 'Любая',
      allSources: 'Все источники',
      reset: 'Сбросить фильтры',
      itemOnly: 'Только один объект',
      runOnly: 'Только одна проверка',
    },
    change: {
      none: 'нет',
      record: 'запись',
      unchanged: 'Изменились служебные поля',
      more: (count: number) => `и ещё полей: ${count}`,
    },
  },
};
