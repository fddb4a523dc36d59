import { PASSWORD_MIN_LENGTH } from '@pledgewatch/contract/password-rules';
/**
 * The part of the dictionary the signed-out screens use (sign-in, password reset, error pages).
 * It is kept apart so the sign-in page does not download every section's wording; `texts` in
 * texts.ts includes it, so signed-in code keeps using that one dictionary. Code that runs before
 * sign-in imports this module instead (the build fails if it pulls texts.ts in; see vite.config.ts).
 */
export const texts = {
  app: {
    name: 'Pledgewatch',
    tagline: 'Мониторинг залогового имущества',
    titleSuffix: ' — Pledgewatch',
  },
  common: {
    save: 'Сохранить',
    cancel: 'Отмена',
    close: 'Закрыть',
    loading: 'Загрузка…',
    retry: 'Повторить',
    yes: 'Да',
    no: 'Нет',
    dash: '—',
    toHome: 'На главную',
    back: 'Назад',
    passwordsMismatch: 'Пароли не совпадают',
    /** Shown under every new-password field; the server checks the rest (common passwords). */
    passwordRules: `Не короче ${PASSWORD_MIN_LENGTH} символов. Не подойдут распространённые пароли, ваш e-mail или имя — удобнее всего фраза из трёх-четырёх не связанных слов.`,
    search: 'Поиск',
    actions: 'Действия',
    expand: 'Развернуть',
    collapse: 'Свернуть',
  },
  errors: {
    network: 'Нет связи с сервером. Проверьте подключение и повторите попытку.',
    unknown: 'Что-то пошло не так. Повторите попытку позже.',
    byStatus: {
      400: 'Некорректный запрос.',
      401: 'Требуется вход в систему.',
      403: 'Недостаточно прав для этого действия.',
      404: 'Не найдено.',
      409: 'Конфликт данных. Обновите страницу и повторите.',
      422: 'Проверьте правильность заполнения полей.',
      429: 'Слишком много попыток. Подождите и повторите позже.',
      500: 'Ошибка сервера. Повторите попытку позже.',
    } as Record<number, string>,
    notFoundTitle: 'Page Not Found',
    notFoundMessage: (path: string) => `Page not found: ${path}`,
    notFoundSubtitle: 'Страница не найдена. Проверьте адрес или вернитесь на главную.',
    serverErrorTitle: 'Internal Server Error',
    serverErrorSubtitle: 'Произошла ошибка. Обновите страницу или вернитесь на главную.',
    reload: 'Обновить страницу',
  },
  auth: {
    title: 'Вход',
    subtitle: 'Войдите, чтобы продолжить работу',
    email: 'E-mail',
    password: 'Пароль',
    submit: 'Войти',
    forgotPassword: 'Забыли пароль?',
  },
  resetPassword: {
    requestTitle: 'Восстановление пароля',
    requestSubtitle: 'Укажите e-mail, и мы отправим ссылку для восстановления пароля.',
    email: 'E-mail',
    requestSubmit: 'Отправить ссылку',
    requestSent:
      'Если учётная запись с этим адресом существует, мы отправили на него письмо со ссылкой для восстановления пароля.',
    confirmTitle: 'Новый пароль',
    confirmSubtitle: 'Придумайте новый пароль для входа.',
    newPassword: 'Новый пароль',
    confirmPassword: 'Повторите пароль',
    confirmSubmit: 'Сохранить пароль',
    success: 'Пароль изменён. Войдите с новым паролем.',
    backToSignIn: 'Вернуться ко входу',
  },
  /** The page of the invitation link: its own words, not the reset ones (no password was forgotten). */
  invitation: {
    title: 'Вас пригласили в Pledgewatch',
    subtitle: 'Задайте пароль, чтобы войти.',
    password: 'Пароль',
    submit: 'Задать пароль',
    success: 'Пароль задан. Войдите с ним, чтобы начать работу.',
  },
  verifyEmail: {
    title: 'Подтверждение e-mail',
    pending: 'Подтверждаем адрес…',
    success: 'Адрес электронной почты подтверждён.',
    missingToken: 'В ссылке нет кода подтверждения. Откройте ссылку из письма ещё раз.',
    toSettings: 'Перейти в настройки',
  },
} as const;
