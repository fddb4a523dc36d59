import { texts as shared } from '@/config/texts';

/**
 * The checks feature's wording (`texts.checks`); the shared words (app, common, errors, nav, pages) come from config/texts.ts.
 */
export const texts = {
  ...shared,
  checks: {
    title: 'Регулярные проверки',
    runs: {
      heading: 'Запуски проверок',
      failedSources: 'Не ответили источники — их проверки не засчитаны как «чисто»:',
      failedSource: (name: string, reason: string, items: string) =>
        `${name}: ${reason} (не проверено объектов: ${items})`,
      hint: 'Каждый запуск проверяет все объекты на мониторинге по всем источникам и превращает изменения в события.',
      start: 'Запустить проверку',
      started: 'Проверка запущена',
      empty: 'Проверок ещё не было.',
      createdAt: 'Запуск (МСК)',
      status: 'Статус',
      progress: 'Объекты',
      eventsCreated: 'Событий',
      startedAt: 'Начата',
      finishedAt: 'Завершена',
      ofTotal: (done: string, total: string) => `${done} из ${total}`,
      bySource: 'Ход по источникам',
      noSources: 'Источники ещё не начали работу.',
      source: 'Источник',
      batches: 'Части',
      itemsChecked: 'Объектов',
      findings: 'С находками',
      events: 'Событий',
      state: 'Состояние',
      sourceDone: 'Готово',
      sourceRunning: 'Выполняется',
      sourceFailed: (count: number) => `Не ответил: частей ${count}`,
    },
    schedule: {
      heading: 'Расписание',
      enabled: 'Проверять ежедневно',
      time: 'Время (МСК)',
      timeHelper: 'По московскому времени',
      timePlaceholder: 'ЧЧ:ММ',
      saved: 'Расписание сохранено',
      dailyAt: (time: string) => `Ежедневно в ${time} (МСК)`,
      off: 'Ежедневная проверка выключена',
      next: (when: string) => `Следующий запуск: ${when}`,
      last: (when: string) => `предыдущий: ${when}`,
    },
    sources: {
      heading: 'Источники данных',
      hint: 'Свежесть данных и скорость ответа каждого источника. Источник, который не ответил, считается ошибкой, а не «чистым» ответом.',
      name: 'Источник',
      adapter: 'Вид',
      version: 'Версия',
      lastRefresh: 'Данные обновлены (МСК)',
      records: 'Записей',
      p50: 'Время p50',
      p95: 'Время p95',
      ms: (value: string) => `${value} мс`,
      oneTimeLatency: (value: string) => `разовая: ${value}`,
      batchLatency: (value: string, items: string) => `пакет из ${items}: ${value}`,
      latencyHint:
        'Разовая — ответ на один объект (разовые проверки); пакет — объекты регулярной проверки за один запрос',
      failures: 'Ошибки подряд',
      failuresInRow: (count: number) => `${count} подряд`,
      lastFailure: (when: string) => `последняя ошибка ${when}`,
      healthy: 'Нет',
      importing: (version: number) => `Загружается версия ${version}`,
      importRead: (bytes: string, total: string | null, rows: string | null) =>
        `${total ? `${bytes} из ${total}` : bytes}${rows === null ? '' : `, строк ${rows}`}`,
      import: 'Загрузить',
      resetCache: 'Сбросить кэш',
      resetAll: 'Сбросить весь кэш',
      cacheCleared: (count: string) => `Кэш сброшен, удалено ответов: ${count}`,
      confirmResetTitle: 'Сбросить кэш?',
      confirmReset: (what: string) =>
        `Сохранённые ответы (${what}) будут удалены без возврата: следующие проверки снова обратятся к источникам и займут больше времени.`,
      allSources: 'все источники',
      budget: 'Запросы и покрытие',
      provider: (name: string) => `Поставщик: ${name}`,
      requestsToday: (count: string, limit: string | null) =>
        limit === null ? `Запросов сегодня: ${count}` : `Запросов сегодня: ${count} из ${limit}`,
      limitSpent: 'Дневной лимит исчерпан: остальные объекты будут запрошены завтра',
      coverage: (percent: string) => `Покрытие: ${percent} %`,
      waiting: (count: string) => `Ждут запроса: ${count}`,
      spend: (today: string, month: string) => `Расход: ${today} ₽ сегодня, ${month} ₽ за месяц`,
      budgetHint:
        'Покрытие — доля активных объектов с ответом источника моложе срока хранения; остальные ждут запроса (при дневном лимите — следующего дня).',
    },
    import: {
      title: (name: string) => `Новая версия данных: ${name}`,
      hint: 'Файл CSV (UTF-8 или Windows-1251, разделитель «;», «,» или табуляция) или JSON до 128 МБ с колонками, описанными в docs/datasets.md. Файл загружается в фоне; ход загрузки — в списке источников, действующая версия отвечает, пока новая не заменит её целиком.',
      choose: 'Выбрать файл',
      change: 'Выбрать другой файл',
      submit: 'Загрузить',
      result: (version: number, records: string, rejected: string) =>
        `Версия ${version}: принято записей ${records}, отклонено строк ${rejected}`,
      row: (row: number) => `Строка ${row}`,
      passportHint:
        'Перечень недействительных паспортов МВД как опубликован (list_of_expired_passports.csv.bz2) или распакованный CSV с заголовком PASSP_SERIES,PASSP_NUMBER. Файл загружается в фоне; ход загрузки — в списке источников, действующая версия отвечает до переключения.',
      queued: (version: number) =>
        `Файл принят: версия ${version} загружается в фоне. Ход загрузки — в списке источников; строки с ошибками будут в истории версий.`,
    },
  },
};
