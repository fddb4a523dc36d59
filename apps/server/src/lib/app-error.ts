/**
 * Domain failures. Services throw these; the one error handler in app.ts turns them into the
 * JSON error shape with the HTTP status and Russian message below.
 */
export const ERRORS = {
  VALIDATION_FAILED: { status: 422, message: 'Проверьте правильность заполнения полей' },
  BAD_REQUEST: { status: 400, message: 'Некорректный запрос' },
  UNAUTHORIZED: { status: 401, message: 'Требуется вход в систему' },
  INVALID_CREDENTIALS: { status: 401, message: 'Неверный e-mail или пароль' },
  UNSUPPORTED_GRANT_TYPE: { status: 400, message: 'Поддерживается только grant_type=password' },
  ACCOUNT_DISABLED: { status: 403, message: 'Учётная запись отключена. Обратитесь к администратору' },
  FORBIDDEN: { status: 403, message: 'Недостаточно прав для этого действия' },
  CROSS_SITE_REQUEST: {
    status: 403,
    message:
      'Запрос отклонён: он отправлен не со страницы Pledgewatch. Обновите страницу и повторите действие',
  },
  NOT_FOUND: { status: 404, message: 'Не найдено' },
  ROUTE_NOT_FOUND: { status: 404, message: 'Такого адреса API нет' },
  CONFLICT: { status: 409, message: 'Конфликт с текущим состоянием данных' },
  EMAIL_TAKEN: { status: 409, message: 'Этот e-mail уже используется другой учётной записью' },
  WRONG_PASSWORD: { status: 400, message: 'Текущий пароль указан неверно' },
  SAME_PASSWORD: { status: 400, message: 'Новый пароль должен отличаться от текущего' },
  TOKEN_INVALID: { status: 400, message: 'Ссылка недействительна или уже использована' },
  TOKEN_EXPIRED: { status: 400, message: 'Срок действия ссылки истёк. Запросите новую' },
  TOO_MANY_ATTEMPTS: { status: 429, message: 'Слишком много попыток. Повторите позже' },
  RATE_LIMITED: { status: 429, message: 'Слишком много запросов. Повторите позже' },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    message: 'Ключ идемпотентности уже использован с другим запросом: для нового запроса нужен новый ключ',
  },
  IDEMPOTENCY_IN_PROGRESS: {
    status: 409,
    message: 'Запрос с этим ключом идемпотентности ещё выполняется: повторите через несколько секунд',
  },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'Слишком большой запрос' },
  CHECK_RUN_IN_PROGRESS: { status: 409, message: 'Проверка уже выполняется. Дождитесь её окончания' },
  PASSPORT_LIST_INVALID: { status: 422, message: 'Файл не похож на перечень недействительных паспортов МВД' },
  DATASET_EMPTY: { status: 422, message: 'В файле нет ни одной подходящей записи' },
  DATASET_FORMAT: {
    status: 422,
    message: 'Не удалось прочитать файл: нужен CSV (UTF-8 или Windows-1251) или JSON',
  },
  INVALID_CHARACTERS: {
    status: 422,
    message: 'Запрос содержит недопустимый символ (NUL, код 0). Уберите его и повторите попытку',
  },
  INTERNAL: { status: 500, message: 'Внутренняя ошибка сервера. Повторите попытку позже' },
  SERVICE_UNAVAILABLE: {
    status: 503,
    message: 'Сервис временно недоступен: нет связи с базой данных. Повторите через минуту',
  },
  NOT_READY: { status: 503, message: 'Сервис не готов принимать запросы' },
  ITEM_NOT_FOUND: { status: 404, message: 'Объект мониторинга не найден' },
  UPLOAD_NOT_FOUND: { status: 404, message: 'Загрузка не найдена' },
  UPLOAD_NO_FILE: { status: 400, message: 'Прикрепите файл CSV или XLSX' },
  UPLOAD_INVALID_FILE: { status: 422, message: 'Файл не удалось прочитать' },
  UPLOAD_TOO_LARGE: { status: 413, message: 'Файл слишком большой' },
  REQUEST_TIMEOUT: {
    status: 408,
    message: 'Запрос передавался слишком долго, и сервер его прервал. Проверьте соединение и повторите',
  },
  UPLOAD_TOO_SLOW: {
    status: 408,
    message:
      'Файл передавался слишком медленно, и загрузка прервана. Проверьте соединение и загрузите файл ещё раз',
  },
  UPLOAD_WRONG_STATUS: { status: 409, message: 'Действие недоступно в текущем состоянии загрузки' },
  UPLOAD_MAPPING_INVALID: { status: 422, message: 'Сопоставление столбцов не подходит к файлу' },
  NOTIFICATION_RULE_NOT_FOUND: { status: 404, message: 'Правило уведомлений не найдено' },
  PLEDGE_UNKNOWN: { status: 422, message: 'Залог не найден в реестре' },
  PLEDGE_CONFLICT: { status: 409, message: 'Уведомление противоречит состоянию залога в реестре' },
  PLEDGE_EVENT_DUPLICATE: { status: 409, message: 'Такое уведомление уже есть в реестре' },
  PLEDGE_EXCLUSION_ADMIN_ONLY: {
    status: 403,
    message: 'Исключение залога может оформить только администратор организации',
  },
  PLEDGE_EVENT_NOT_CORRECTABLE: {
    status: 409,
    message: 'Исправить можно только уведомление без пакета или с отказом реестра',
  },
  PLEDGE_EVENT_NOT_FOUND: { status: 404, message: 'Событие реестра залогов не найдено' },
  SAVED_VIEW_NOT_FOUND: { status: 404, message: 'Сохранённый вид не найден' },
  PLEDGE_PACKAGE_NOT_FOUND: { status: 404, message: 'Пакет уведомлений не найден' },
  PLEDGE_CORRECTION_UNCHANGED: {
    status: 422,
    message: 'Исправление ничего не меняет: измените поле, о котором сообщил реестр, и сохраните снова',
  },
  PLEDGE_EXPORT_INVALID: {
    status: 422,
    message: 'Пакет не выгружен: уведомления не проходят проверку формата реестра. Исправьте их',
  },
  PLEDGE_RESULTS_INVALID: {
    status: 422,
    message: 'Файл результатов реестра не принят: ничего не внесено',
  },
  PLEDGE_PACKAGE_WRONG_STATUS: { status: 409, message: 'Действие недоступно в текущем статусе пакета' },
  PLEDGE_PACKAGE_SAME_PERSON: {
    status: 403,
    message:
      'Одобрить пакет должен другой сотрудник: не тот, кто создал пакет, вносил его уведомления или менял его состав',
  },
  PLEDGE_EVENTS_NOT_FREE: { status: 409, message: 'Некоторые события уже в другом пакете или не найдены' },
  URL_NOT_ALLOWED: {
    status: 422,
    message: 'Этот адрес нельзя использовать: он ведёт во внутреннюю сеть или задан неверно',
  },
  CACHE_INVALIDATE_STAFF_ONLY: {
    status: 403,
    message: 'Кэш источников общий для всех организаций: сбросить его может только сотрудник платформы',
  },
  WEAK_PASSWORD: { status: 422, message: 'Пароль не подходит: выберите более надёжный' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;

export interface FieldError {
  field: string;
  message: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly fieldErrors?: FieldError[];
  readonly headers?: Record<string, string>;

  constructor(
    code: ErrorCode,
    options: { message?: string; fieldErrors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(options.message ?? ERRORS[code].message);
    this.name = 'AppError';
    this.code = code;
    this.statusCode = ERRORS[code].status;
    this.fieldErrors = options.fieldErrors;
    this.headers = options.headers;
  }
}

export const isAppError = (error: unknown): error is AppError => error instanceof AppError;
