import { texts as shared } from '@/config/texts';
import { countOf, formatInteger } from '@/lib/plural';

/**
 * The monitoring-items feature's wording (`texts.monitoringItems`); the shared words (app, common, errors, nav, pages) come from config/texts.ts.
 */
export const texts = {
  ...shared,
  monitoringItems: {
    title: 'Объекты мониторинга',
    add: 'Добавить объекты',
    tabVin: 'VIN',
    tabDocuments: 'Документы',
    tableVin: 'Транспортные средства на мониторинге',
    tableDocuments: 'Документы залогодателей на мониторинге',
    search: 'Поиск',
    searchPlaceholderVin: 'VIN, метка или номер договора',
    searchPlaceholderDocument: 'Номер документа, метка или договор',
    statusFilter: {
      current: 'Все, кроме архива',
      active: 'На мониторинге',
      paused: 'Приостановленные',
      archived: 'В архиве',
      all: 'Все, включая архив',
    },
    total: (count: number) => `Всего: ${countOf(count, 'объект', 'объекта', 'объектов')}`,
    /** A search with more than 10 000 matches: the server estimates the total. */
    totalAbout: (count: number) => `Всего: около ${formatInteger(count)} объектов`,
    /** The pager's rows of an estimated total. */
    rowsOfAbout: (from: number, to: number, count: number) =>
      `${from}–${to} из примерно ${formatInteger(count)}`,
    vin: 'VIN',
    document: 'Документ',
    label: 'Метка',
    labelHint: 'Например, марка и модель',
    contractNumber: 'Договор',
    pledgorName: 'Залогодатель',
    status: 'Статус',
    origin: 'Источник',
    added: 'Добавлен (МСК)',
    sortBy: 'Сортировка',
    // Sort options name the order, not a column: no time zone to state there.
    sortByAdded: 'Дата добавления',
    sortByLastCheck: 'Последняя проверка',
    sortAscending: 'По возрастанию, нажмите для убывания',
    sortDescending: 'По убыванию, нажмите для возрастания',
    addedCard: (origin: string, at: string) => `Добавлен: ${origin}, ${at} МСК`,
    archivedAt: 'В архиве с',
    lastCheckedAt: 'Последняя проверка (МСК)',
    neverChecked: 'Не проверялся',
    modelYear: (year: number) => `${year} модельный год`,
    modelYearShort: (year: number) => `${year} г.`,
    modelYearLabel: 'Модельный год',
    wmi: 'Код изготовителя (WMI)',
    manufacturer: 'Марка',
    country: 'Регион и страна',
    vinUnknown: 'Изготовитель не определён',
    checkDigitWarning: (expected: string) =>
      `Контрольная цифра не совпадает (ожидалась ${expected}) — для автомобилей рынка РФ это допустимо`,
    selectPage: 'Выбрать все на странице',
    selectItem: (identifier: string) => `Выбрать ${identifier}`,
    selected: (count: number) => `Выбрано: ${countOf(count, 'объект', 'объекта', 'объектов')}`,
    clearSelection: 'Снять выбор',
    rowActions: (identifier: string) => `Действия с ${identifier}`,
    open: 'Подробнее',
    edit: 'Изменить',
    pause: 'Приостановить',
    resume: 'Возобновить',
    restore: 'Вернуть на мониторинг',
    archive: 'В архив',
    saved: 'Изменения сохранены',
    editTitle: (identifier: string) => `Изменить ${identifier}`,
    statusChanged: {
      active: (count: number) =>
        count === 1
          ? 'Объект на мониторинге'
          : `На мониторинге: ${countOf(count, 'объект', 'объекта', 'объектов')}`,
      paused: (count: number) =>
        count === 1
          ? 'Проверки приостановлены'
          : `Приостановлено: ${countOf(count, 'объект', 'объекта', 'объектов')}`,
      archived: (count: number) =>
        count === 1
          ? 'Объект перенесён в архив'
          : `В архив: ${countOf(count, 'объект', 'объекта', 'объектов')}`,
    },
    confirmTitle: {
      active: 'Возобновить проверки?',
      paused: 'Приостановить проверки?',
      archived: 'Перенести в архив?',
    },
    confirmOne: {
      active: (identifier: string) => `${identifier} снова будет проверяться.`,
      paused: (identifier: string) => `${identifier} не будет проверяться, пока проверки не возобновят.`,
      archived: (identifier: string) =>
        `${identifier} перестанет проверяться и уйдёт в архив. Вернуть его можно фильтром «В архиве».`,
    },
    confirmMany: {
      active: (count: number) =>
        `${countOf(count, 'объект', 'объекта', 'объектов')} снова будут проверяться.`,
      paused: (count: number) =>
        `${countOf(count, 'объект', 'объекта', 'объектов')} не будут проверяться, пока проверки не возобновят.`,
      archived: (count: number) =>
        `${countOf(count, 'объект', 'объекта', 'объектов')} перестанут проверяться и уйдут в архив. Вернуть их можно фильтром «В архиве».`,
    },
    confirmAction: {
      active: 'Возобновить',
      paused: 'Приостановить',
      archived: 'В архив',
    },
    emptyVin: 'На мониторинге пока нет транспортных средств.',
    emptyDocuments: 'На мониторинге пока нет документов залогодателей.',
    emptyFiltered: 'Ничего не найдено. Измените поиск или фильтр статуса.',
    detailsTitle: 'Объект мониторинга',
    noChecksTitle: 'Проверок ещё не было',
    noChecksHint: 'Находки источников и события появятся после первой регулярной проверки.',
    findingsTitle: 'Находки источников',
    noFindings: 'Источники ничего не нашли.',
    findingsCount: (count: number) => countOf(count, 'запись', 'записи', 'записей'),
    clean: 'Ничего не найдено',
    eventsTitle: 'События',
    noEvents: 'Событий пока нет.',
    demo: 'ДЕМО',
  },
};
