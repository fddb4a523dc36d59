import { texts as shared } from '@/config/texts';

/**
 * The outbox feature's wording (`texts.outbox`, a settings tab); the shared words (app, common, errors, nav, pages) come from config/texts.ts.
 */
export const texts = {
  ...shared,
  outbox: {
    heading: 'Исходящая почта',
    hint: 'Письма, которые отправила система. Если SMTP не настроен, письма хранятся только здесь. Коды в ссылках (сброс пароля, приглашение, подтверждение e-mail) скрыты: по ним можно войти в чужую учётную запись.',
    filter: 'Адресат',
    to: 'Кому',
    subject: 'Тема',
    status: 'Статус',
    createdAt: 'Создано (МСК)',
    body: 'Текст письма',
    lastError: 'Последняя ошибка',
    empty: 'Писем нет.',
    statuses: {
      queued: 'В очереди',
      sent: 'Отправлено',
      stored: 'Сохранено',
      failed: 'Ошибка',
    },
  },
};
