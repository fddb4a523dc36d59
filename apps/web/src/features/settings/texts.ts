import { texts as shared } from '@/config/texts';

/**
 * The settings feature's wording (`texts.settings`); the shared words (app, common, errors, nav, pages) come from config/texts.ts.
 */
export const texts = {
  ...shared,
  settings: {
    title: 'Настройки',
    tabs: {
      profile: 'Профиль',
      password: 'Пароль',
      appearance: 'Оформление',
      sessions: 'Сеансы',
      users: 'Пользователи',
      apiKeys: 'Ключи API',
      outbox: 'Исходящая почта',
      audit: 'Журнал действий',
    },
    profile: {
      heading: 'Профиль',
      fullName: 'ФИО',
      organisation: 'Организация',
      role: 'Роль',
      saved: 'Профиль сохранён',
    },
    email: {
      heading: 'Адрес электронной почты',
      current: 'Текущий адрес',
      verified: 'Подтверждён',
      notVerified: 'Не подтверждён',
      newEmail: 'Новый e-mail',
      submit: 'Сменить e-mail',
      pending: (email: string) =>
        `Ожидает подтверждения: ${email}. Откройте ссылку из письма, отправленного на этот адрес.`,
      sent: 'Письмо для подтверждения отправлено на новый адрес',
    },
    password: {
      heading: 'Смена пароля',
      oldPassword: 'Текущий пароль',
      newPassword: 'Новый пароль',
      confirmPassword: 'Повторите новый пароль',
      submit: 'Сменить пароль',
      changed: 'Пароль изменён',
    },
    appearance: {
      heading: 'Тема оформления',
      hint: 'Вариант «Как в системе» следует настройке операционной системы.',
    },
    sessions: {
      heading: 'Активные сеансы',
      device: 'Устройство',
      ip: 'IP-адрес',
      createdAt: 'Начат (МСК)',
      lastUsedAt: 'Последняя активность (МСК)',
      expiresAt: 'Истекает',
      current: 'Текущий сеанс',
      unknownDevice: 'Неизвестное устройство',
      end: 'Завершить',
      endOthers: 'Выйти на всех других устройствах',
      ended: 'Сеанс завершён',
      endedOthers: 'Другие сеансы завершены',
      empty: 'Других активных сеансов нет.',
      confirmEndTitle: 'Завершить сеанс?',
      confirmEnd: (device: string) =>
        `На устройстве «${device}» придётся войти заново. Завершённый сеанс восстановить нельзя.`,
      confirmOthersTitle: 'Выйти на всех других устройствах?',
      confirmOthers: 'Все сеансы, кроме текущего, будут завершены: на тех устройствах придётся войти заново.',
    },
  },
};
