import { texts as shared } from '@/config/texts';

/**
 * The dashboard feature's wording (`texts.dashboard`); the shared words (app, common, errors, nav, pages) come from config/texts.ts.
 */
export const texts = {
  ...shared,
  dashboard: {
    title: 'Главная',
    items: {
      heading: 'На мониторинге',
      hint: 'Объекты на мониторинге и на паузе, без архива',
      vin: 'VIN',
      document: 'Документы',
      active: 'на мониторинге',
      paused: 'на паузе',
      archived: 'в архиве',
      openList: 'Открыть портфель',
    },
    unread: {
      heading: 'Непрочитанные события',
      bySeverity: 'По важности',
      byType: 'Непрочитанные события по типам',
      none: 'Непрочитанных событий нет.',
      openList: 'Все непрочитанные',
      type: 'Событие',
      severity: 'Важность',
      count: 'Число',
    },
    run: {
      heading: 'Последняя проверка',
      none: 'Регулярных проверок ещё не было.',
      itemsChecked: (when: string) => `Объекты проверены: ${when} (МСК)`,
      noRunsLogged: 'Запусков регулярной проверки в журнале пока нет: время взято из данных объектов.',
      items: (done: string, total: string) => `${done} из ${total}`,
      events: (count: string) => `Новых событий: ${count}`,
      started: (when: string) => `Запуск: ${when} (МСК)`,
      finished: (when: string) => `Завершена: ${when} (МСК)`,
      open: 'Проверки',
      failedSources: 'Не ответили источники — их проверки не засчитаны как «чисто»:',
      failedSource: (name: string, reason: string, items: string) =>
        `${name}: ${reason} (не проверено объектов: ${items})`,
    },
    deliveries: {
      heading: 'Ошибки уведомлений',
      recent: (days: number) => `за последние ${days} дней`,
      total: (count: string) => `Всего с ошибкой: ${count}`,
      open: 'Журнал уведомлений',
    },
    quickCheck: {
      heading: 'Разовая проверка',
      hint: 'VIN или номер документа — форма проверки откроется уже заполненной.',
      kind: 'Что проверить',
      vin: 'VIN',
      number: 'VIN или номер документа',
      submit: 'Проверить',
      required: 'Введите VIN или номер документа',
    },
    recentChecks: {
      heading: 'Последние разовые проверки',
      none: 'Разовых проверок ещё не было.',
      findings: (count: number) => (count > 0 ? `находок: ${count}` : 'находок нет'),
      all: 'Вся история',
    },
  },
};
