import type { OutboxMail } from '@pledgewatch/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { startSmtpSink } from '../../testing/smtp-sink.ts';
import { bearer, buildTestApp, createSignedInUser, signIn, uniqueEmail } from '../../testing/test-app.ts';
import { redactTokens } from './platform.service.ts';

const smtp = await startSmtpSink();
afterAll(() => smtp.close());
const { app } = await buildTestApp({ config: { smtpUrl: smtp.url }, runWorkers: true });
const staff = await createSignedInUser(app, { role: 'admin', isStaff: true });

const tokenOf = (text: string) => /[?&]token=([A-Za-z0-9_-]+)/.exec(text)?.[1];

async function outboxFor(email: string): Promise<OutboxMail[]> {
  const response = await app.inject({
    method: 'GET',
    url: `/api/v1/platform/outbox?to=${encodeURIComponent(email)}`,
    headers: bearer(staff.token),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ items: OutboxMail[] }>().items;
}

/** A new user who has asked for a password reset: one mail to them in the outbox. */
async function userWithResetMail() {
  const user = await createSignedInUser(app);
  const asked = await app.inject({
    method: 'POST',
    url: '/api/v1/user/reset-password',
    payload: { email: user.email },
  });
  expect(asked.statusCode, asked.body).toBeLessThan(300);
  return user;
}

describe('the staff mail outbox shows what was sent, not the secret', () => {
  it('a reset mail: the outbox hides the token, the mail sent over SMTP keeps it and it works', async () => {
    const user = await userWithResetMail();
    const sent = await smtp.waitFor(
      (mail) => mail.to.includes(user.email) && /Восстановление/.test(mail.subject),
    );
    const token = tokenOf(sent.text);
    expect(token).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(sent.html).toContain(token);

    const [listed] = await outboxFor(user.email);
    expect(listed?.subject).toBe(sent.subject);
    for (const part of [listed!.subject, listed!.text, listed!.html]) {
      expect(part).not.toContain(token!);
    }
    expect(listed!.text).toContain('/reset-password?token=[скрыто]');
    expect(listed!.html).toContain('/reset-password?token=[скрыто]');
    // The rest of the mail is there for support to see.
    expect(listed!.text).toContain('Мы получили запрос на восстановление пароля');

    const confirmed = await app.inject({
      method: 'POST',
      url: '/api/v1/user/reset-password/confirm',
      payload: { token, new_password: 'brand new password 7' },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    await expect(signIn(app, user.email, 'brand new password 7')).resolves.toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('an invitation: the token is hidden also before other parameters and in HTML-escaped links', async () => {
    const admin = await createSignedInUser(app, { role: 'admin' });
    const email = uniqueEmail('invited');
    const invited = await app.inject({
      method: 'POST',
      url: '/api/v1/users',
      headers: bearer(admin.token),
      payload: { email, fullName: 'Ольга Приглашённая', role: 'analyst' },
    });
    expect(invited.statusCode, invited.body).toBeLessThan(300);
    const sent = await smtp.waitFor((mail) => mail.to.includes(email));
    const token = tokenOf(sent.text)!;
    const [listed] = await outboxFor(email);
    expect(`${listed!.subject}${listed!.text}${listed!.html}`).not.toContain(token);
    expect(listed!.text).toContain('token=[скрыто]&invite=1');
  });

  it('finds by address with «%» and «_» as themselves, not as LIKE wildcards', async () => {
    const user = await userWithResetMail();
    expect(await outboxFor(user.email)).toHaveLength(1);
    // No address of the tests holds either character: once, each matched every mail.
    expect(await outboxFor('%')).toEqual([]);
    expect(await outboxFor('_')).toEqual([]);
  });

  it('redacts every form a link can take', () => {
    expect(redactTokens('a https://x.ru/p?token=abc_DEF-1 b')).toBe('a https://x.ru/p?token=[скрыто] b');
    expect(redactTokens('/p?x=1&token=abc&y=2')).toBe('/p?x=1&token=[скрыто]&y=2');
    expect(redactTokens('href="/p?a=1&amp;token=abc"')).toBe('href="/p?a=1&amp;token=[скрыто]"');
    expect(redactTokens('href="/p?a=1&#38;TOKEN=abc%2Bd"')).toBe('href="/p?a=1&#38;TOKEN=[скрыто]"');
    expect(redactTokens('без ссылок')).toBe('без ссылок');
  });
});
