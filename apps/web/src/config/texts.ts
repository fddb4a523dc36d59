import { texts as signedOutTexts } from './texts-signed-out';

/**
 * The shared words of the UI: app, common, errors, navigation, layout, page titles. Each feature's
 * own wording is in `features/<f>/texts.ts`, whose `texts` spreads this one, so components never
 * hard-code user-facing text and a feature imports only its own dictionary.
 */
export const texts = {
  // app, common, errors, auth, resetPassword, verifyEmail: texts-signed-out.ts.
  ...signedOutTexts,
  common: {
    ...signedOutTexts.common,
    /** The count on a multi-select filter (events, statistics, report). */
    selected: (count: number) => `Выбрано: ${count}`,
    /** The two ends of a period (statistics, report). */
    dateFrom: 'С',
    dateTo: 'По',
  },
  nav: {
    label: 'Навигация',
    openMenu: 'Открыть меню',
    home: 'Главная',
    news: 'Новости',
    monitoringSection: 'Мониторинг',
    items: 'Объекты',
    upload: 'Загрузка',
    uploadsHistory: 'История загрузок',
    notifications: 'Уведомления',
    statistics: 'Статистика',
    report: 'Отчёт',
    oneTimeCheck: 'Разовая проверка',
    oneTimeCheckHistory: 'История проверок',
    pledgesSection: 'Залоги',
    pledgesUploadEvents: 'Загрузка событий',
    pledgesEventsRegistry: 'Реестр событий',
    settings: 'Настройки',
    events: 'События',
    checks: 'Регулярные проверки',
  },
  layout: {
    signOut: 'Выйти',
    userMenu: 'Пользователь',
  },
  /** The shared responsive table, filter drawer and date field (components/ui). */
  responsive: {
    filters: 'Фильтры',
    filtersCount: (count: number) => `Фильтры: ${count}`,
    closeFilters: 'Закрыть фильтры',
    showResults: 'Показать',
    datePlaceholder: 'ДД.ММ.ГГГГ',
  },
  /** Saved views of a list: the menu and its dialogs (components/saved-views). */
  savedViews: {
    button: 'Виды',
    buttonNamed: (name: string) => `Вид: ${name}`,
    menuLabel: 'Сохранённые виды',
    none: 'Сохранённых видов пока нет',
    save: 'Сохранить текущий вид…',
    manage: 'Управлять видами…',
    isDefault: 'открывается по умолчанию',
    saveTitle: 'Сохранить вид',
    saveHint: 'Сохранятся фильтры и сортировка списка. Вид видите только вы.',
    name: 'Название',
    makeDefault: 'Открывать этот вид, когда список открыт без фильтров',
    cancel: 'Отмена',
    submit: 'Сохранить',
    saved: (name: string) => `Вид «${name}» сохранён`,
    manageTitle: 'Сохранённые виды',
    close: 'Закрыть',
    rename: (name: string) => `Переименовать «${name}»`,
    renameField: (name: string) => `Новое название для «${name}»`,
    renamed: 'Вид переименован',
    setDefault: (name: string) => `Открывать «${name}» по умолчанию`,
    unsetDefault: (name: string) => `Не открывать «${name}» по умолчанию`,
    remove: (name: string) => `Удалить «${name}»`,
    removed: (name: string) => `Вид «${name}» удалён`,
  },
  /** The shared upload steps: the header found, the mapping of columns, the sheet (components/uploads). */
  uploadColumns: {
    mappingTitle: 'Сопоставьте столбцы',
    mappingHint:
      'Для каждого столбца файла выберите поле или «Не загружать». Нужен хотя бы один столбец с VIN или номером документа. Выбор запомнится для следующих файлов с такими же заголовками.',
    column: (index: number) => `Столбец ${index + 1}`,
    noHeader: 'Без заголовка',
    samples: 'Примеры',
    noSamples: 'Нет значений',
    field: 'Поле',
    skip: 'Не загружать',
    keyField: (title: string) => `${title} — идентификатор`,
    guessed: 'Угадано по названию',
    remembered: 'Как в прошлый раз',
    ambiguous: 'Похож на другой столбец',
    apply: 'Продолжить проверку',
    editMapping: 'Изменить сопоставление',
    cancelEdit: 'Не менять',
    columnsTitle: 'Столбцы файла',
    notLoaded: 'не загружается',
    rememberedNote: 'Сопоставление взято из прошлой загрузки файла с такими же заголовками.',
    sheet: 'Лист книги',
    headerAtFirstRow: 'Заголовок — в строке 1.',
    skippedRows: (count: number, list: string) => `Пропущено строк итогов и примечаний: ${count} (${list})`,
    skippedRow: (row: number, text: string) => `строка ${row}: «${text}»`,
  },
  theme: {
    toggle: 'Сменить тему',
    current: (label: string) => `Тема: ${label}`,
    auto: 'Как в системе',
    light: 'Светлая',
    dark: 'Тёмная',
  },
  pages: {
    home: {
      title: 'Главная',
      description:
        'Здесь появится сводка: число объектов на мониторинге, непрочитанные события по типам и последние проверки.',
    },
    news: {
      title: 'Новости',
      description: 'Здесь будут публиковаться новости и изменения продукта.',
    },
    items: {
      title: 'Объекты мониторинга',
      description:
        'Здесь появится портфель объектов — транспортные средства по VIN и документы залогодателей.',
    },
    upload: {
      title: 'Загрузка объектов',
      tabForm: 'Вручную',
      tabTable: 'Из файла',
      formDescription: 'Здесь можно будет добавить на мониторинг один VIN или документ вручную.',
      tableDescription:
        'Здесь можно будет загрузить файл CSV или XLSX с объектами и проверить строки перед импортом.',
    },
    uploadsHistory: {
      title: 'История загрузок',
      description: 'Здесь появятся все загрузки файлов со статусом, счётчиками строк и файлом ошибок.',
    },
    notifications: {
      title: 'Уведомления',
      description: 'Здесь появятся правила уведомлений о событиях и журнал отправленных уведомлений.',
    },
    statistics: {
      title: 'Статистика',
      description: 'Здесь появятся графики событий, проверок и уведомлений за выбранный период.',
    },
    report: {
      title: 'Отчёт',
      description:
        'Здесь можно будет сформировать и скачать отчёт по событиям и портфелю в XLSX, CSV или PDF.',
    },
    pledgesUploadEvents: {
      title: 'Загрузка событий залога',
      tabForm: 'Вручную',
      tabTable: 'Из файла',
      formDescription: 'Здесь можно будет ввести одно уведомление о залоге вручную.',
      tableDescription:
        'Здесь можно будет загрузить файл с событиями залога и проверить строки перед импортом.',
    },
    pledgesEventsRegistry: {
      title: 'Реестр событий залога',
      tabTable: 'События',
      tabPackages: 'Пакеты',
      tableDescription: 'Здесь появится таблица уведомлений о залоге: возникновение, изменение и исключение.',
      packagesDescription: 'Здесь появятся пакеты уведомлений для отправки в реестр и их статусы.',
    },
  },
} as const;

export type Texts = typeof texts;
