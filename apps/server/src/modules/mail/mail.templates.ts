import type { MailMessage } from '../../lib/mailer.ts';

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** One layout for every mail: a greeting, paragraphs, an action button with its link also in plain text. */
export function renderMail(options: {
  to: string;
  subject: string;
  greeting: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  footer?: string;
}): MailMessage {
  const footer = options.footer ?? 'Если вы не запрашивали это письмо, просто проигнорируйте его.';
  const text = [
    options.greeting,
    '',
    ...options.paragraphs,
    ...(options.action ? ['', `${options.action.label}: ${options.action.url}`] : []),
    '',
    footer,
    '',
    '— Pledgewatch',
  ].join('\n');
  const html = `<!doctype html><html lang="ru"><body style="font-family:Arial,sans-serif;color:#1a1a1a">
<p>${escapeHtml(options.greeting)}</p>
${options.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
${
  options.action
    ? `<p><a href="${escapeHtml(options.action.url)}" style="display:inline-block;padding:10px 18px;background:#1565c0;color:#fff;text-decoration:none;border-radius:4px">${escapeHtml(options.action.label)}</a></p>
<p style="font-size:12px;color:#555">Если кнопка не работает, откройте ссылку: ${escapeHtml(options.action.url)}</p>`
    : ''
}
<p style="font-size:12px;color:#555">${escapeHtml(footer)}</p>
<p style="font-size:12px;color:#555">— Pledgewatch</p>
</body></html>`;
  return { to: options.to, subject: options.subject, text, html };
}

export const resetPasswordMail = (o: { to: string; name: string; url: string; ttlMinutes: number }) =>
  renderMail({
    to: o.to,
    subject: 'Восстановление пароля — Pledgewatch',
    greeting: `Здравствуйте, ${o.name}!`,
    paragraphs: [
      'Мы получили запрос на восстановление пароля к вашей учётной записи Pledgewatch.',
      `Ссылка действует ${o.ttlMinutes} мин. и может быть использована один раз.`,
    ],
    action: { label: 'Задать новый пароль', url: o.url },
  });

export const verifyEmailMail = (o: { to: string; name: string; url: string }) =>
  renderMail({
    to: o.to,
    subject: 'Подтверждение e-mail — Pledgewatch',
    greeting: `Здравствуйте, ${o.name}!`,
    paragraphs: ['Подтвердите, пожалуйста, адрес электронной почты для вашей учётной записи Pledgewatch.'],
    action: { label: 'Подтвердить e-mail', url: o.url },
  });

export const changeEmailMail = (o: { to: string; name: string; url: string }) =>
  renderMail({
    to: o.to,
    subject: 'Подтверждение нового e-mail — Pledgewatch',
    greeting: `Здравствуйте, ${o.name}!`,
    paragraphs: [
      'Этот адрес указан как новый e-mail для вашей учётной записи Pledgewatch.',
      'Адрес изменится после того, как вы перейдёте по ссылке.',
    ],
    action: { label: 'Подтвердить новый e-mail', url: o.url },
  });

export const inviteMail = (o: {
  to: string;
  name: string;
  organisation: string;
  inviter: string;
  url: string;
}) =>
  renderMail({
    to: o.to,
    subject: `Приглашение в Pledgewatch — ${o.organisation}`,
    greeting: `Здравствуйте, ${o.name}!`,
    paragraphs: [
      `${o.inviter} приглашает вас в рабочее пространство «${o.organisation}» в Pledgewatch.`,
      'Чтобы начать работу, задайте пароль по ссылке ниже.',
    ],
    action: { label: 'Задать пароль и войти', url: o.url },
    footer: 'Если вы не ожидали приглашения, проигнорируйте это письмо.',
  });

/** To the owner of an address someone else asked to move their account to: nothing changed. */
export const emailTakenMail = (o: { to: string; name: string }) =>
  renderMail({
    to: o.to,
    subject: 'Запрос на привязку вашего e-mail — Pledgewatch',
    greeting: `Здравствуйте, ${o.name}!`,
    paragraphs: [
      'Кто-то указал этот адрес как новый e-mail для другой учётной записи Pledgewatch.',
      'С этим адресом уже связана ваша учётная запись, а один адрес может принадлежать только одной, поэтому ничего не изменилось.',
      'Если это были вы, войдите в Pledgewatch с этим адресом или укажите в другой учётной записи иной e-mail.',
    ],
    footer: 'Если это были не вы, просто проигнорируйте письмо: ваша учётная запись в безопасности.',
  });

/** To the owner of an address an admin of another organisation invited: no account was created. */
export const inviteTakenMail = (o: { to: string; name: string; organisation: string; inviter: string }) =>
  renderMail({
    to: o.to,
    subject: `Приглашение в Pledgewatch — ${o.organisation}`,
    greeting: `Здравствуйте, ${o.name}!`,
    paragraphs: [
      `${o.inviter} приглашает вас в рабочее пространство «${o.organisation}» в Pledgewatch.`,
      'С этим адресом уже связана ваша учётная запись Pledgewatch в другой организации, а один адрес может принадлежать только одной учётной записи, поэтому новая учётная запись не создана.',
      'Если вы хотите работать и в этой организации, попросите пригласившего указать другой ваш адрес.',
    ],
    footer: 'Если вы не ожидали приглашения, проигнорируйте это письмо.',
  });

export const passwordChangedMail = (o: { to: string; name: string }) =>
  renderMail({
    to: o.to,
    subject: 'Пароль изменён — Pledgewatch',
    greeting: `Здравствуйте, ${o.name}!`,
    paragraphs: ['Пароль вашей учётной записи Pledgewatch был изменён. Другие сеансы завершены.'],
    footer: 'Если это были не вы, немедленно восстановите пароль и сообщите администратору.',
  });
