import { texts as shared } from '@/config/texts';

/**
 * The users feature's wording (`texts.users`, a settings tab); the shared words (app, common, errors, nav, pages) come from config/texts.ts.
 */
export const texts = {
  ...shared,
  users: {
    heading: 'Пользователи организации',
    search: 'Поиск по имени или e-mail',
    invite: 'Пригласить пользователя',
    inviteTitle: 'Приглашение пользователя',
    inviteSubmit: 'Пригласить',
    invited: 'Приглашение отправлено',
    fullName: 'ФИО',
    email: 'E-mail',
    role: 'Роль',
    status: 'Статус',
    lastLogin: 'Последний вход (МСК)',
    /** «Приглашён» until the invitation link is used: the person cannot sign in yet. */
    statuses: { invited: 'Приглашён', active: 'Активен', disabled: 'Отключён' },
    activate: 'Включить',
    deactivate: 'Отключить',
    confirmDeactivateTitle: 'Отключить пользователя?',
    confirmDeactivate: (name: string) =>
      `${name} сразу выйдет на всех устройствах и не сможет войти, пока его не включат снова. Завершённые сеансы не восстановятся.`,
    updated: 'Изменения сохранены',
    you: 'вы',
    empty: 'Пользователи не найдены.',
    changeRole: (name: string) => `Роль пользователя ${name}`,
  },
};
