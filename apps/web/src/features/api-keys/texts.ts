import { texts as shared } from '@/config/texts';

/** The API keys feature's wording (`texts.apiKeys`, a settings tab for admins). */
export const texts = {
  ...shared,
  apiKeys: {
    heading: 'Ключи API',
    intro:
      'Ключ API нужен системам банка (АБС, кредитный конвейер): они ставят объекты на мониторинг, вносят уведомления о залоге и запускают проверки без пароля сотрудника. Ключ не управляет пользователями и ключами; всё, что он делает, видно в журнале действий под его названием.',
    create: 'Создать ключ',
    createTitle: 'Новый ключ API',
    name: 'Название',
    namePlaceholder: 'Например, АБС: выдача кредитов',
    role: 'Роль',
    expiresOn: 'Действует по',
    expiresHint: 'Пусто — бессрочно',
    rateLimit: 'Запросов в минуту',
    cancel: 'Отмена',
    submit: 'Создать',
    secretTitle: 'Ключ создан',
    secretWarning:
      'Скопируйте ключ сейчас: он показывается один раз и нигде не хранится. Потерянный ключ отзовите и создайте новый.',
    copy: 'Скопировать',
    copied: 'Ключ скопирован',
    done: 'Готово',
    empty: 'Ключей пока нет',
    columns: {
      name: 'Название',
      role: 'Роль',
      prefix: 'Начало ключа',
      lastUsed: 'Последнее использование',
      expires: 'Действует по',
      status: 'Состояние',
      actions: '',
    },
    never: 'не использовался',
    unlimited: 'бессрочно',
    status: { active: 'Действует', expired: 'Истёк', revoked: 'Отозван' },
    revoke: 'Отозвать',
    revokeTitle: 'Отозвать ключ?',
    revokeMessage: (name: string) =>
      `Ключ «${name}» перестанет действовать сразу. Системы, которые им пользуются, получат отказ.`,
    revoked: 'Ключ отозван',
  },
};
