import { describe, expect, it } from 'vitest';
import {
  bearer,
  buildTestApp,
  createSignedInUser,
  latestMailTo,
  signIn,
  uniqueEmail,
} from '../../testing/test-app.ts';
import { createOrganisation, createUserAccount } from '../organisations/organisations.service.ts';
import { INVITE_MIN_RESPONSE_MS, RESET_MIN_RESPONSE_MS, RESET_REQUESTED_MESSAGE } from './users.service.ts';

const { app } = await buildTestApp();

const post = (url: string, payload: object, token?: string) =>
  app.inject({ method: 'POST', url, payload, headers: token ? bearer(token) : {} });
const me = (token: string) => app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: bearer(token) });
const mailCount = async (to: string) =>
  (await app.db.query('SELECT count(*)::int AS n FROM mail_outbox WHERE to_address = $1', [to])).rows[0]
    .n as number;

describe('GET/PATCH /api/v1/user/profile', () => {
  it('shows the user, the pending e-mail and the sessions with the current one marked', async () => {
    const user = await createSignedInUser(app);
    await signIn(app, user.email, user.password);
    const response = await app.inject({
      method: 'GET',
      url: '/api/v1/user/profile',
      headers: bearer(user.token),
    });
    expect(response.statusCode).toBe(200);
    const profile = response.json();
    expect(profile.user.email).toBe(user.email);
    expect(profile.pendingEmail).toBeNull();
    expect(profile.sessions).toHaveLength(2);
    expect(profile.sessions.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
  });

  it('renames the user and rejects an empty name', async () => {
    const user = await createSignedInUser(app);
    const ok = await app.inject({
      method: 'PATCH',
      url: '/api/v1/user/profile',
      headers: bearer(user.token),
      payload: { fullName: '  Пётр Петров ' },
    });
    expect(ok.json().fullName).toBe('Пётр Петров');
    const bad = await app.inject({
      method: 'PATCH',
      url: '/api/v1/user/profile',
      headers: bearer(user.token),
      payload: { fullName: '   ' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().fieldErrors).toEqual([{ field: 'fullName', message: 'Обязательное поле' }]);
  });
});

describe('PUT /api/v1/user/email', () => {
  it('sends a confirmation to the new address and changes the login only after it is opened', async () => {
    const user = await createSignedInUser(app);
    const newEmail = uniqueEmail('new');
    const response = await app.inject({
      method: 'PUT',
      url: '/api/v1/user/email',
      headers: bearer(user.token),
      payload: { email: newEmail.toUpperCase() },
    });
    expect(response.statusCode).toBe(200);
    expect((await me(user.token)).json().user.email).toBe(user.email);
    const mail = await latestMailTo(app, newEmail);
    expect(mail.subject).toBe('Подтверждение нового e-mail — Pledgewatch');
    expect(mail.text).toContain('http://pledgewatch.test/verify-email?token=');

    const verify = await post('/api/v1/user/verify-email', { token: mail.token });
    expect(verify.statusCode).toBe(200);
    expect(verify.json().message).toBe(`E-mail изменён на ${newEmail}`);
    expect((await me(user.token)).json().user.email).toBe(newEmail);
    expect(await signIn(app, newEmail, user.password)).toBeTruthy();

    const again = await post('/api/v1/user/verify-email', { token: mail.token });
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('TOKEN_INVALID');
  });

  it('answers the same for an address another account uses, mails its owner and changes nothing', async () => {
    const user = await createSignedInUser(app);
    const other = await createSignedInUser(app);
    const fresh = uniqueEmail('fresh');
    const put = (token: string, email: string) =>
      app.inject({ method: 'PUT', url: '/api/v1/user/email', headers: bearer(token), payload: { email } });
    const taken = await put(user.token, other.email);
    const free = await put((await createSignedInUser(app)).token, fresh);
    expect(taken.statusCode).toBe(200);
    expect(free.statusCode).toBe(200);
    expect(taken.json().message).toBe(
      `Мы отправили письмо на ${other.email}. Адрес изменится после перехода по ссылке из письма`,
    );
    expect(taken.json().message.replace(other.email, fresh)).toBe(free.json().message);
    // The profile shows the same pending address either way.
    const profile = await app.inject({
      method: 'GET',
      url: '/api/v1/user/profile',
      headers: bearer(user.token),
    });
    expect(profile.json().pendingEmail).toBe(other.email);
    // The owner of the taken address learns that nothing changed; no confirmation link is sent.
    const mail = await latestMailTo(app, other.email);
    expect(mail.subject).toBe('Запрос на привязку вашего e-mail — Pledgewatch');
    expect(mail.text).toContain('ничего не изменилось');
    expect(mail.token).toBeUndefined();
    expect((await me(user.token)).json().user.email).toBe(user.email);
    expect((await me(other.token)).json().user.email).toBe(other.email);
  });

  it('refuses a malformed address and the current one', async () => {
    const user = await createSignedInUser(app);
    const malformed = await app.inject({
      method: 'PUT',
      url: '/api/v1/user/email',
      headers: bearer(user.token),
      payload: { email: 'not-an-email' },
    });
    expect(malformed.statusCode).toBe(422);
    expect(malformed.json().fieldErrors[0]).toEqual({
      field: 'email',
      message: 'Введите корректный адрес электронной почты',
    });
    const same = await app.inject({
      method: 'PUT',
      url: '/api/v1/user/email',
      headers: bearer(user.token),
      payload: { email: user.email },
    });
    expect(same.statusCode).toBe(409);
  });

  it('limits e-mail change requests per user with 429', async () => {
    const user = await createSignedInUser(app);
    const put = () =>
      app.inject({
        method: 'PUT',
        url: '/api/v1/user/email',
        headers: bearer(user.token),
        payload: { email: uniqueEmail('probe') },
      });
    for (let i = 0; i < 5; i++) {
      expect((await put()).statusCode).toBe(200);
    }
    const blocked = await put();
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('POST /api/v1/user/change-password', () => {
  it('changes the password and ends the other sessions but not this one', async () => {
    const user = await createSignedInUser(app);
    const other = await signIn(app, user.email, user.password);
    const response = await post(
      '/api/v1/user/change-password',
      { old_password: user.password, new_password: 'a brand new secret' },
      user.token,
    );
    expect(response.statusCode).toBe(200);
    expect((await me(user.token)).statusCode).toBe(200);
    expect((await me(other)).statusCode).toBe(401);
    expect(await signIn(app, user.email, 'a brand new secret')).toBeTruthy();
    expect((await latestMailTo(app, user.email)).subject).toBe('Пароль изменён — Pledgewatch');
  });

  it('refuses a wrong current password, a reused one and a short one', async () => {
    const user = await createSignedInUser(app);
    const wrong = await post(
      '/api/v1/user/change-password',
      { old_password: 'nope', new_password: 'long enough 1' },
      user.token,
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fieldErrors).toEqual([
      { field: 'old_password', message: 'Текущий пароль указан неверно' },
    ]);
    const same = await post(
      '/api/v1/user/change-password',
      { old_password: user.password, new_password: user.password },
      user.token,
    );
    expect(same.json().code).toBe('SAME_PASSWORD');
    const short = await post(
      '/api/v1/user/change-password',
      { old_password: user.password, new_password: 'short' },
      user.token,
    );
    expect(short.statusCode).toBe(422);
    expect(short.json().fieldErrors).toEqual([
      { field: 'new_password', message: 'Минимальная длина — 12 симв.' },
    ]);
  });

  it('refuses common and easily guessed passwords and the e-mail itself, saying why', async () => {
    const user = await createSignedInUser(app);
    const tryPassword = (new_password: string) =>
      post('/api/v1/user/change-password', { old_password: user.password, new_password }, user.token);
    const cases: [string, RegExp][] = [
      ['123456789012', /^Это один из самых распространённых паролей/],
      ['qwerty123456', /^Это один из самых распространённых паролей/],
      ['Password2026', /^Пароль слишком легко подобрать/],
      ['aaaaaaaaaaaa', /^Пароль слишком легко подобрать/],
      [user.email, /^Пароль не должен совпадать с e-mail$/],
      [user.email.toUpperCase(), /^Пароль не должен совпадать с e-mail$/],
    ];
    for (const [password, reason] of cases) {
      const response = await tryPassword(password);
      expect(response.statusCode, password).toBe(422);
      expect(response.json().code).toBe('WEAK_PASSWORD');
      expect(response.json().fieldErrors).toHaveLength(1);
      expect(response.json().fieldErrors[0].field).toBe('new_password');
      expect(response.json().fieldErrors[0].message, password).toMatch(reason);
    }
    expect(await signIn(app, user.email, user.password)).toBeTruthy();
  });

  it('limits wrong current passwords per user with 429, even from a fresh session', async () => {
    const user = await createSignedInUser(app);
    for (let i = 0; i < 5; i++) {
      const wrong = await post(
        '/api/v1/user/change-password',
        { old_password: `guess ${i}`, new_password: 'a brand new secret' },
        user.token,
      );
      expect(wrong.statusCode).toBe(400);
    }
    const other = await signIn(app, user.email, user.password);
    const blocked = await post(
      '/api/v1/user/change-password',
      { old_password: user.password, new_password: 'a brand new secret' },
      other,
    );
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(await signIn(app, user.email, user.password)).toBeTruthy();
  });
});

describe('GET /api/v1/users?search', () => {
  it('matches «_» and «%» as themselves, not as LIKE wildcards', async () => {
    const admin = await createSignedInUser(app, { role: 'admin' });
    const stamp = Date.now().toString(36);
    const [underscored, plain] = [`ivan_${stamp}@test.ru`, `ivanx${stamp}@test.ru`];
    for (const email of [underscored, plain]) {
      await createUserAccount(app.db, {
        organisationId: admin.organisationId,
        email,
        fullName: 'Сотрудник Банка',
        role: 'analyst',
        password: 'correct horse battery',
      });
    }
    const found = async (search: string) =>
      (
        await app.inject({
          url: `/api/v1/users?search=${encodeURIComponent(search)}`,
          headers: bearer(admin.token),
        })
      )
        .json<{ items: { email: string }[] }>()
        .items.map((member) => member.email)
        .sort();
    expect(await found(`ivan_${stamp}`)).toEqual([underscored]);
    expect(await found('%')).toEqual([]);
    expect(await found(stamp)).toEqual([underscored, plain]);
  });
});

describe('accounts made by the CLI and the demo data', () => {
  it('pass the same password rule', async () => {
    const organisationId = await createOrganisation(app.db, 'Банк для CLI');
    const create = (password: string) =>
      createUserAccount(app.db, {
        organisationId,
        email: uniqueEmail('cli'),
        fullName: 'Из Консоли',
        role: 'admin',
        password,
      });
    await expect(create('qwerty123456')).rejects.toMatchObject({
      code: 'WEAK_PASSWORD',
      fieldErrors: [{ field: 'password', message: expect.stringMatching(/^Это один из самых/) }],
    });
    await expect(create('short')).rejects.toMatchObject({ message: 'Минимальная длина — 12 симв.' });
    expect(await create('correct horse battery')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('password reset', () => {
  it('gives the same answer for known and unknown addresses and mails only the known one', async () => {
    const user = await createSignedInUser(app);
    const unknown = uniqueEmail('ghost');
    const known = await post('/api/v1/user/reset-password', { email: user.email });
    const ghost = await post('/api/v1/user/reset-password', { email: unknown });
    expect(known.statusCode).toBe(200);
    expect(ghost.statusCode).toBe(200);
    expect(known.json()).toEqual({ message: RESET_REQUESTED_MESSAGE });
    expect(ghost.json()).toEqual(known.json());
    expect(await mailCount(user.email)).toBe(1);
    expect(await mailCount(unknown)).toBe(0);
    expect(known.headers['content-type']).toBe(ghost.headers['content-type']);
    expect(known.headers['content-length']).toBe(ghost.headers['content-length']);
  });

  it('takes at least the same fixed time for known and unknown addresses', async () => {
    const user = await createSignedInUser(app);
    for (const email of [user.email, uniqueEmail('ghost')]) {
      const started = performance.now();
      const response = await post('/api/v1/user/reset-password', { email });
      expect(response.statusCode).toBe(200);
      expect(performance.now() - started).toBeGreaterThanOrEqual(RESET_MIN_RESPONSE_MS - 5);
    }
  });

  it('a refused new password leaves the link usable for a better one', async () => {
    const user = await createSignedInUser(app);
    await post('/api/v1/user/reset-password', { email: user.email });
    const { token } = await latestMailTo(app, user.email);
    const weak = await post('/api/v1/user/reset-password/confirm', { token, new_password: '123456789012' });
    expect(weak.statusCode).toBe(422);
    expect(weak.json().fieldErrors[0]).toMatchObject({ field: 'new_password' });
    const good = await post('/api/v1/user/reset-password/confirm', {
      token,
      new_password: 'reset and renewed',
    });
    expect(good.statusCode).toBe(200);
  });

  it('sets a new password with the mailed token once, and ends every session', async () => {
    const user = await createSignedInUser(app);
    await post('/api/v1/user/reset-password', { email: user.email });
    const { token, text } = await latestMailTo(app, user.email);
    expect(text).toContain('http://pledgewatch.test/reset-password?token=');
    const confirm = await post('/api/v1/user/reset-password/confirm', {
      token,
      new_password: 'reset and renewed',
    });
    expect(confirm.statusCode).toBe(200);
    expect((await me(user.token)).statusCode).toBe(401);
    expect(await signIn(app, user.email, 'reset and renewed')).toBeTruthy();
    const reused = await post('/api/v1/user/reset-password/confirm', {
      token,
      new_password: 'another new one',
    });
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toMatchObject({
      code: 'TOKEN_INVALID',
      message: 'Ссылка недействительна или уже использована',
    });
  });

  it('refuses an expired token and a made-up one', async () => {
    const user = await createSignedInUser(app);
    await post('/api/v1/user/reset-password', { email: user.email });
    const { token } = await latestMailTo(app, user.email);
    await app.db.query(
      `UPDATE email_tokens SET expires_at = now() - interval '1 minute' WHERE user_id = $1`,
      [user.id],
    );
    const expired = await post('/api/v1/user/reset-password/confirm', {
      token,
      new_password: 'too late now',
    });
    expect(expired.json()).toMatchObject({
      code: 'TOKEN_EXPIRED',
      message: 'Срок действия ссылки истёк. Запросите новую',
    });
    const madeUp = await post('/api/v1/user/reset-password/confirm', {
      token: 'x'.repeat(43),
      new_password: 'anything 123',
    });
    expect(madeUp.json().code).toBe('TOKEN_INVALID');
    expect(await signIn(app, user.email, user.password)).toBeTruthy();
  });

  it('a newer reset link cancels the older one', async () => {
    const user = await createSignedInUser(app);
    await post('/api/v1/user/reset-password', { email: user.email });
    const first = (await latestMailTo(app, user.email)).token;
    await post('/api/v1/user/reset-password', { email: user.email });
    const old = await post('/api/v1/user/reset-password/confirm', {
      token: first,
      new_password: 'from old link',
    });
    expect(old.json().code).toBe('TOKEN_INVALID');
  });

  it('limits requests per address with 429, for unknown addresses too', async () => {
    const email = uniqueEmail('flood');
    for (let i = 0; i < 3; i++) {
      expect((await post('/api/v1/user/reset-password', { email })).statusCode).toBe(200);
    }
    const blocked = await post('/api/v1/user/reset-password', { email });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/^Слишком много попыток/);
  });
});

describe('e-mail verification', () => {
  it('verifies the current address with the mailed token', async () => {
    const user = await createSignedInUser(app);
    await app.db.query('UPDATE users SET email_verified_at = NULL WHERE id = $1', [user.id]);
    expect((await me(user.token)).json().user.emailVerified).toBe(false);
    const send = await post('/api/v1/user/verify-email/send', {}, user.token);
    expect(send.statusCode).toBe(200);
    const { token } = await latestMailTo(app, user.email);
    const verify = await post('/api/v1/user/verify-email', { token });
    expect(verify.json().message).toBe('E-mail подтверждён');
    expect((await me(user.token)).json().user.emailVerified).toBe(true);
  });

  it('refuses a reset token used as a verification token', async () => {
    const user = await createSignedInUser(app);
    await post('/api/v1/user/reset-password', { email: user.email });
    const { token } = await latestMailTo(app, user.email);
    expect((await post('/api/v1/user/verify-email', { token })).json().code).toBe('TOKEN_INVALID');
  });
});

describe('organisation members', () => {
  it('an admin invites a colleague who sets a password from the mail and signs in', async () => {
    const admin = await createSignedInUser(app, { role: 'admin' });
    const email = uniqueEmail('invitee');
    const invite = await post(
      '/api/v1/users',
      { email, fullName: 'Новая Коллега', role: 'viewer' },
      admin.token,
    );
    expect(invite.statusCode).toBe(202);
    expect(invite.json()).toEqual({ message: `Мы отправили приглашение на ${email}` });
    const list = await app.inject({ method: 'GET', url: '/api/v1/users', headers: bearer(admin.token) });
    expect(list.json().items).toContainEqual(
      expect.objectContaining({
        email,
        role: 'viewer',
        active: true,
        status: 'invited',
        emailVerified: false,
      }),
    );
    const mail = await latestMailTo(app, email);
    expect(mail.subject).toMatch(/^Приглашение в Pledgewatch/);
    // The invitee's password passes the same rule as every other (the invite link is a reset link).
    const weak = await post('/api/v1/user/reset-password/confirm', {
      token: mail.token,
      new_password: 'password1234',
    });
    expect(weak.json().code).toBe('WEAK_PASSWORD');
    const set = await post('/api/v1/user/reset-password/confirm', {
      token: mail.token,
      new_password: 'my first pass',
    });
    expect(set.statusCode).toBe(200);
    const token = await signIn(app, email, 'my first pass');
    const profile = (await me(token)).json().user;
    expect(profile).toMatchObject({ role: 'viewer', emailVerified: true });
    expect(profile.organisation.id).toBe(admin.organisationId);
    const member = async () =>
      (await app.inject({ method: 'GET', url: '/api/v1/users', headers: bearer(admin.token) }))
        .json()
        .items.find((item: { email: string }) => item.email === email);
    expect(await member()).toMatchObject({ active: true, status: 'active' });
    const disabled = await app.inject({
      method: 'PATCH',
      url: `/api/v1/users/${(await member()).id}`,
      headers: bearer(admin.token),
      payload: { active: false },
    });
    expect(disabled.json()).toMatchObject({ active: false, status: 'disabled' });
    expect(await member()).toMatchObject({ active: false, status: 'disabled' });
  });

  it('answers the same for an address with an account in another organisation, and mails its owner', async () => {
    const admin = await createSignedInUser(app, { role: 'admin' });
    const elsewhere = await createSignedInUser(app);
    const fresh = uniqueEmail('fresh');
    const invite = (email: string) =>
      post('/api/v1/users', { email, fullName: 'Кто-то', role: 'analyst' }, admin.token);
    const taken = await invite(elsewhere.email);
    const free = await invite(fresh);
    expect(taken.statusCode).toBe(202);
    expect(free.statusCode).toBe(202);
    expect(taken.json()).toEqual({ message: `Мы отправили приглашение на ${elsewhere.email}` });
    expect(taken.json().message.replace(elsewhere.email, fresh)).toBe(free.json().message);
    // Both answers wait for the same floor, so the cheaper path does not show in the timing.
    const started = performance.now();
    await invite(uniqueEmail('timed'));
    const freshTime = performance.now() - started;
    const another = await createSignedInUser(app);
    const startedTaken = performance.now();
    await invite(another.email);
    expect(performance.now() - startedTaken).toBeGreaterThanOrEqual(INVITE_MIN_RESPONSE_MS - 5);
    expect(freshTime).toBeGreaterThanOrEqual(INVITE_MIN_RESPONSE_MS - 5);
    const mail = await latestMailTo(app, elsewhere.email);
    expect(mail.subject).toMatch(/^Приглашение в Pledgewatch/);
    expect(mail.text).toContain('новая учётная запись не создана');
    expect(mail.token).toBeUndefined();
    // The other organisation's account is untouched.
    expect((await me(elsewhere.token)).json().user.organisation.id).toBe(elsewhere.organisationId);
  });

  it('a member of the admin’s own organisation is a visible conflict', async () => {
    const admin = await createSignedInUser(app, { role: 'admin' });
    const colleague = await createSignedInUser(app, { organisationId: admin.organisationId });
    const again = await post(
      '/api/v1/users',
      { email: colleague.email, fullName: 'Коллега', role: 'analyst' },
      admin.token,
    );
    expect(again.statusCode).toBe(409);
    expect(again.json().fieldErrors).toEqual([
      { field: 'email', message: 'Пользователь с таким e-mail уже есть в вашей организации' },
    ]);
  });

  it('limits invitations per admin with 429', async () => {
    const admin = await createSignedInUser(app, { role: 'admin' });
    await app.db.query(
      `INSERT INTO auth_attempts (kind, key, succeeded) SELECT 'invite', $1, true FROM generate_series(1, 30)`,
      [`user:${admin.id}`],
    );
    const blocked = await post(
      '/api/v1/users',
      { email: uniqueEmail('one-too-many'), fullName: 'X', role: 'viewer' },
      admin.token,
    );
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('only admins manage members', async () => {
    const analyst = await createSignedInUser(app, { role: 'analyst' });
    const list = await app.inject({ method: 'GET', url: '/api/v1/users', headers: bearer(analyst.token) });
    expect(list.statusCode).toBe(403);
    expect(list.json().message).toBe('Недостаточно прав для этого действия');
    const invite = await post(
      '/api/v1/users',
      { email: uniqueEmail(), fullName: 'X', role: 'admin' },
      analyst.token,
    );
    expect(invite.statusCode).toBe(403);
  });

  it('never shows or changes another organisation’s users', async () => {
    const adminA = await createSignedInUser(app, { role: 'admin' });
    const adminB = await createSignedInUser(app, { role: 'admin' });
    const colleague = await createSignedInUser(app, { organisationId: adminA.organisationId });
    const list = await app.inject({ method: 'GET', url: '/api/v1/users', headers: bearer(adminA.token) });
    const emails = list.json().items.map((item: { email: string }) => item.email);
    expect(emails.sort()).toEqual([adminA.email, colleague.email].sort());
    expect(list.json().total).toBe(2);
    const patch = await app.inject({
      method: 'PATCH',
      url: `/api/v1/users/${colleague.id}`,
      headers: bearer(adminB.token),
      payload: { active: false },
    });
    expect(patch.statusCode).toBe(404);
    expect((await me(colleague.token)).statusCode).toBe(200);
  });

  it('deactivating a member ends their sessions; the last admin cannot be demoted', async () => {
    const admin = await createSignedInUser(app, { role: 'admin' });
    const member = await createSignedInUser(app, { organisationId: admin.organisationId });
    const off = await app.inject({
      method: 'PATCH',
      url: `/api/v1/users/${member.id}`,
      headers: bearer(admin.token),
      payload: { active: false },
    });
    expect(off.json().active).toBe(false);
    expect((await me(member.token)).statusCode).toBe(401);
    const demote = await app.inject({
      method: 'PATCH',
      url: `/api/v1/users/${admin.id}`,
      headers: bearer(admin.token),
      payload: { role: 'analyst' },
    });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().message).toBe('В организации должен остаться хотя бы один администратор');
  });
});

describe('sessions', () => {
  it('ends one session by id and all the other sessions at once', async () => {
    const user = await createSignedInUser(app);
    const second = await signIn(app, user.email, user.password);
    const third = await signIn(app, user.email, user.password);
    const profile = (
      await app.inject({ method: 'GET', url: '/api/v1/user/profile', headers: bearer(user.token) })
    ).json();
    const secondSession = profile.sessions.find((s: { current: boolean }) => !s.current);
    const end = await app.inject({
      method: 'DELETE',
      url: `/api/v1/user/sessions/${secondSession.id}`,
      headers: bearer(user.token),
    });
    expect(end.statusCode).toBe(200);
    const alive = [(await me(second)).statusCode, (await me(third)).statusCode].filter((s) => s === 200);
    expect(alive).toHaveLength(1);
    const all = await app.inject({
      method: 'DELETE',
      url: '/api/v1/user/sessions',
      headers: bearer(user.token),
    });
    expect(all.json().message).toBe('Завершено сеансов: 1');
    expect((await me(second)).statusCode).toBe(401);
    expect((await me(third)).statusCode).toBe(401);
    expect((await me(user.token)).statusCode).toBe(200);
  });

  it('cannot end another user’s session', async () => {
    const a = await createSignedInUser(app);
    const b = await createSignedInUser(app);
    const bSession = (
      await app.inject({ method: 'GET', url: '/api/v1/user/profile', headers: bearer(b.token) })
    ).json().sessions[0].id;
    const response = await app.inject({
      method: 'DELETE',
      url: `/api/v1/user/sessions/${bSession}`,
      headers: bearer(a.token),
    });
    expect(response.statusCode).toBe(404);
    expect((await me(b.token)).statusCode).toBe(200);
  });
});

describe('GET /api/v1/platform/outbox', () => {
  it('is for platform staff only', async () => {
    const staff = await createSignedInUser(app, { isStaff: true });
    const analyst = await createSignedInUser(app);
    await post('/api/v1/user/reset-password', { email: analyst.email });
    const denied = await app.inject({
      method: 'GET',
      url: '/api/v1/platform/outbox',
      headers: bearer(analyst.token),
    });
    expect(denied.statusCode).toBe(403);
    const list = await app.inject({
      method: 'GET',
      url: `/api/v1/platform/outbox?to=${encodeURIComponent(analyst.email)}`,
      headers: bearer(staff.token),
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().total).toBe(1);
    expect(list.json().items[0]).toMatchObject({ to: analyst.email, status: 'queued' });
  });
});
