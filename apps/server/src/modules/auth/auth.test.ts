import { describe, expect, it } from 'vitest';
import { bearer, buildTestApp, createSignedInUser, signIn } from '../../testing/test-app.ts';

const { app } = await buildTestApp({ config: { loginMaxAttempts: 3 } });

const loginForm = (username: string, password: string) => ({
  method: 'POST' as const,
  url: '/api/v1/auth/login',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  payload: new URLSearchParams({
    grant_type: 'password',
    username,
    password,
    scope: '',
    client_id: '',
    client_secret: '',
  }).toString(),
});

describe('POST /api/v1/auth/login', () => {
  it('returns an opaque bearer token for the right password, stored only as a hash', async () => {
    const user = await createSignedInUser(app);
    const response = await app.inject(loginForm(user.email.toUpperCase(), user.password));
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.token_type).toBe('bearer');
    expect(body.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = await app.db.query('SELECT token_hash FROM sessions WHERE user_id = $1', [user.id]);
    expect(stored.rows.map((row) => row.token_hash)).not.toContain(body.access_token);
    expect(stored.rowCount).toBe(2);
  });

  it('refuses a wrong password and an unknown user with the same 401 and Russian message', async () => {
    const user = await createSignedInUser(app);
    const wrong = await app.inject(loginForm(user.email, 'not the password'));
    const unknown = await app.inject(loginForm('nobody@test.ru', 'whatever'));
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({
      statusCode: 401,
      code: 'INVALID_CREDENTIALS',
      message: 'Неверный e-mail или пароль',
    });
    expect(unknown.json()).toEqual(wrong.json());
  });

  it('answers 422 with field errors for an empty form', async () => {
    const response = await app.inject(loginForm('', ''));
    expect(response.statusCode).toBe(422);
    expect(response.json().fieldErrors).toEqual([
      { field: 'username', message: 'Обязательное поле' },
      { field: 'password', message: 'Обязательное поле' },
    ]);
  });

  it('throttles repeated failures for one account with 429 and Retry-After, even for the right password', async () => {
    const user = await createSignedInUser(app);
    for (let i = 0; i < 3; i++) {
      expect((await app.inject(loginForm(user.email, 'wrong'))).statusCode).toBe(401);
    }
    const blocked = await app.inject(loginForm(user.email, user.password));
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/^Слишком много попыток\. Повторите через \d+ мин\.$/);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // Another account is not affected by this one's failures.
    const other = await createSignedInUser(app);
    expect((await app.inject(loginForm(other.email, other.password))).statusCode).toBe(200);
  });

  it('refuses a deactivated user', async () => {
    const user = await createSignedInUser(app);
    await app.db.query('UPDATE users SET active = false WHERE id = $1', [user.id]);
    const response = await app.inject(loginForm(user.email, user.password));
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe('ACCOUNT_DISABLED');
  });
});

describe('GET /api/v1/auth/me and DELETE /api/v1/auth/logout', () => {
  it('returns the signed-in user with organisation and role', async () => {
    const user = await createSignedInUser(app, { role: 'viewer' });
    const response = await app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: bearer(user.token) });
    expect(response.statusCode).toBe(200);
    const { user: me } = response.json();
    expect(me).toMatchObject({
      id: user.id,
      email: user.email,
      role: 'viewer',
      isStaff: false,
      emailVerified: true,
    });
    expect(me.organisation.id).toBe(user.organisationId);
  });

  it('answers 401 without a token, with a malformed one and with an unknown one', async () => {
    for (const headers of [{}, { authorization: 'Basic abc' }, bearer('x'.repeat(43))]) {
      const response = await app.inject({ method: 'GET', url: '/api/v1/auth/me', headers });
      expect(response.statusCode).toBe(401);
      expect(response.json().code).toBe('UNAUTHORIZED');
    }
  });

  it('logout makes the token stop working but leaves other sessions alive', async () => {
    const user = await createSignedInUser(app);
    const second = await signIn(app, user.email, user.password);
    const logout = await app.inject({
      method: 'DELETE',
      url: '/api/v1/auth/logout',
      headers: bearer(user.token),
    });
    expect(logout.statusCode).toBe(200);
    const me = await app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: bearer(user.token) });
    expect(me.statusCode).toBe(401);
    const still = await app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: bearer(second) });
    expect(still.statusCode).toBe(200);
  });

  it('an expired session is refused', async () => {
    const user = await createSignedInUser(app);
    await app.db.query(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [
      user.id,
    ]);
    const response = await app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: bearer(user.token) });
    expect(response.statusCode).toBe(401);
  });

  it('accepts the auth_token cookie; a write by cookie needs a same-origin page (session-cookie.test.ts)', async () => {
    const user = await createSignedInUser(app);
    const get = await app.inject({
      method: 'GET',
      url: '/api/v1/auth/me',
      headers: { cookie: `auth_token=${user.token}` },
    });
    expect(get.statusCode).toBe(200);
    const del = await app.inject({
      method: 'DELETE',
      url: '/api/v1/auth/logout',
      headers: { cookie: `auth_token=${user.token}` },
    });
    expect(del.statusCode).toBe(403);
  });
});
