import { describe, expect, it } from 'vitest';
import { bearer, buildTestApp, createSignedInUser, signIn } from '../../testing/test-app.ts';
import { pruneAuthAttemptsJob } from './jobs/prune-attempts.job.ts';

const { app, config } = await buildTestApp({ config: { loginMaxAttempts: 3 } });

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

  it('throttles repeated failures from one address with 429 and Retry-After, even for the right password', async () => {
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

  it('does not lock the owner out: the right password from another address signs in while the attacker waits', async () => {
    const user = await createSignedInUser(app);
    const attacker = { remoteAddress: '203.0.113.7' };
    for (let i = 0; i < 6; i++) {
      const guess = await app.inject({ ...loginForm(user.email, `guess ${i}`), ...attacker });
      expect(guess.statusCode).toBe(i < 3 ? 401 : 429);
    }
    const owner = await app.inject({
      ...loginForm(user.email, user.password),
      remoteAddress: '198.51.100.20',
    });
    expect(owner.statusCode).toBe(200);
    // The attacker's address stays throttled for this account, right password or not.
    const again = await app.inject({ ...loginForm(user.email, user.password), ...attacker });
    expect(again.statusCode).toBe(429);
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('delays grow with every further failure of the same account and address', async () => {
    const user = await createSignedInUser(app);
    const from = { remoteAddress: '203.0.113.8' };
    for (let i = 0; i < 3; i++) {
      await app.inject({ ...loginForm(user.email, 'wrong'), ...from });
    }
    const first = Number(
      (await app.inject({ ...loginForm(user.email, 'wrong'), ...from })).headers['retry-after'],
    );
    // Let the first delay pass: move the failures back in time.
    await app.db.query(
      `UPDATE auth_attempts SET created_at = created_at - make_interval(secs => $2) WHERE key = $1`,
      [`pair:${user.email}|203.0.113.8`, first + 1],
    );
    expect((await app.inject({ ...loginForm(user.email, 'wrong'), ...from })).statusCode).toBe(401);
    const second = Number(
      (await app.inject({ ...loginForm(user.email, 'wrong'), ...from })).headers['retry-after'],
    );
    expect(first).toBeGreaterThanOrEqual(59);
    expect(second).toBeGreaterThan(first);
  });

  it('counts parallel guesses: a burst cannot slip past the limit', async () => {
    const user = await createSignedInUser(app);
    const from = { remoteAddress: '203.0.113.9' };
    const burst = await Promise.all(
      Array.from({ length: 8 }, (_, i) => app.inject({ ...loginForm(user.email, `burst ${i}`), ...from })),
    );
    const checked = burst.filter((response) => response.statusCode === 401).length;
    expect(checked).toBeLessThanOrEqual(3);
    expect(burst.filter((response) => response.statusCode === 429).length).toBe(8 - checked);
  });

  it('limits failures from one address across many accounts (credential stuffing)', async () => {
    const from = { remoteAddress: '203.0.113.10' };
    // 3 attempts × 4 = 12 failures per address, spread over accounts that do not exist.
    for (let i = 0; i < 12; i++) {
      expect(
        (await app.inject({ ...loginForm(`stuffed-${i}@test.ru`, 'password1'), ...from })).statusCode,
      ).toBe(401);
    }
    const user = await createSignedInUser(app);
    const blocked = await app.inject({ ...loginForm(user.email, user.password), ...from });
    expect(blocked.statusCode).toBe(429);
    // An account that has signed in from this address before is not blocked by others' failures.
    await app.db.query('DELETE FROM auth_attempts WHERE key = $1', [`ip:203.0.113.10`]);
    expect((await app.inject({ ...loginForm(user.email, user.password), ...from })).statusCode).toBe(200);
    for (let i = 0; i < 12; i++) {
      await app.inject({ ...loginForm(`stuffed-${i}@test.ru`, 'password1'), ...from });
    }
    expect((await app.inject({ ...loginForm(user.email, user.password), ...from })).statusCode).toBe(200);
  });

  it('counts an IPv6 client by its /64: rotating addresses inside it does not reset the limit', async () => {
    const user = await createSignedInUser(app);
    for (let i = 0; i < 3; i++) {
      const guess = await app.inject({
        ...loginForm(user.email, 'wrong'),
        remoteAddress: `2001:db8:5:6::${i + 1}`,
      });
      expect(guess.statusCode).toBe(401);
    }
    const rotated = await app.inject({
      ...loginForm(user.email, 'wrong'),
      remoteAddress: '2001:db8:5:6:ffff::9',
    });
    expect(rotated.statusCode).toBe(429);
  });

  it('an account under a distributed attack gives new addresses fewer tries, yet the right password still works', async () => {
    const user = await createSignedInUser(app);
    // 12 failures (3 × 4) from 12 addresses mark the account as under attack.
    for (let i = 0; i < 12; i++) {
      await app.inject({ ...loginForm(user.email, 'wrong'), remoteAddress: `192.0.2.${i + 1}` });
    }
    const fresh = { remoteAddress: '192.0.2.100' };
    expect((await app.inject({ ...loginForm(user.email, 'wrong'), ...fresh })).statusCode).toBe(401);
    expect((await app.inject({ ...loginForm(user.email, 'wrong'), ...fresh })).statusCode).toBe(401);
    expect((await app.inject({ ...loginForm(user.email, user.password), ...fresh })).statusCode).toBe(429);
    // Another new address, with the right password at once, signs in.
    const owner = await app.inject({ ...loginForm(user.email, user.password), remoteAddress: '192.0.2.200' });
    expect(owner.statusCode).toBe(200);
  });

  it('refuses a deactivated user', async () => {
    const user = await createSignedInUser(app);
    await app.db.query('UPDATE users SET active = false WHERE id = $1', [user.id]);
    const response = await app.inject(loginForm(user.email, user.password));
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe('ACCOUNT_DISABLED');
  });
});

describe('client address behind proxies (TRUST_PROXY)', () => {
  const sessionIp = async (userId: string) =>
    (
      await app.db.query<{ ip: string }>(
        'SELECT ip FROM sessions WHERE user_id = $1 ORDER BY created_at DESC LIMIT 1',
        [userId],
      )
    ).rows[0]?.ip;

  it('by default ignores X-Forwarded-For, so a spoofed header does not dodge the per-address limit', async () => {
    const user = await createSignedInUser(app);
    const form = loginForm(user.email, user.password);
    const signedIn = await app.inject({
      ...form,
      headers: { ...form.headers, 'x-forwarded-for': '203.0.113.50' },
      remoteAddress: '198.51.100.60',
    });
    expect(signedIn.statusCode).toBe(200);
    expect(await sessionIp(user.id)).toBe('198.51.100.60');

    const from = { remoteAddress: '198.51.100.61' };
    for (let i = 0; i < 12; i++) {
      const guess = loginForm(`spoofer-${i}@test.ru`, 'password1');
      const response = await app.inject({
        ...guess,
        headers: { ...guess.headers, 'x-forwarded-for': `203.0.113.${i + 1}` },
        ...from,
      });
      expect(response.statusCode).toBe(401);
    }
    const next = loginForm('spoofer-next@test.ru', 'password1');
    const blocked = await app.inject({
      ...next,
      headers: { ...next.headers, 'x-forwarded-for': '203.0.113.99' },
      ...from,
    });
    expect(blocked.statusCode).toBe(429);
  });

  it('with TRUST_PROXY=1 takes the address the one trusted proxy saw (the last hop)', async () => {
    const proxied = await buildTestApp({ config: { trustProxy: { hops: 1 } } });
    const user = await createSignedInUser(proxied.app);
    const form = loginForm(user.email, user.password);
    const response = await proxied.app.inject({
      ...form,
      headers: { ...form.headers, 'x-forwarded-for': '203.0.113.50, 198.51.100.70' },
      remoteAddress: '10.0.0.2',
    });
    expect(response.statusCode).toBe(200);
    const { rows } = await proxied.app.db.query<{ ip: string }>(
      'SELECT ip FROM sessions WHERE user_id = $1 ORDER BY created_at DESC LIMIT 1',
      [user.id],
    );
    expect(rows[0]?.ip).toBe('198.51.100.70');
  });

  it('with TRUST_PROXY as addresses believes only those proxies', async () => {
    const proxied = await buildTestApp({ config: { trustProxy: { addresses: ['10.0.0.0/8'] } } });
    const user = await createSignedInUser(proxied.app);
    const form = loginForm(user.email, user.password);
    const viaProxy = await proxied.app.inject({
      ...form,
      headers: { ...form.headers, 'x-forwarded-for': '198.51.100.80' },
      remoteAddress: '10.1.2.3',
    });
    const direct = await proxied.app.inject({
      ...form,
      headers: { ...form.headers, 'x-forwarded-for': '198.51.100.81' },
      remoteAddress: '198.51.100.90',
    });
    expect([viaProxy.statusCode, direct.statusCode]).toEqual([200, 200]);
    const { rows } = await proxied.app.db.query<{ ip: string }>(
      'SELECT ip FROM sessions WHERE user_id = $1 ORDER BY created_at',
      [user.id],
    );
    expect(rows.map((row) => row.ip).slice(1)).toEqual(['198.51.100.80', '198.51.100.90']);
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

describe('auth attempts pruning (nightly job)', () => {
  it('is a scheduled job that drops attempts older than the longest look-back and keeps the rest', async () => {
    expect(pruneAuthAttemptsJob.cron).toBeDefined();
    const key = `prune-test:${Date.now()}`;
    const ages = { old: '40 days', known: '29 days', recent: '10 minutes' };
    for (const [label, age] of Object.entries(ages)) {
      await app.db.query(
        `INSERT INTO auth_attempts (kind, key, succeeded, created_at) VALUES ('login', $1, true, now() - $2::interval)`,
        [`${key}:${label}`, age],
      );
    }
    const log = { info: () => {} } as never;
    await pruneAuthAttemptsJob.handler({ id: 'test', data: {}, retryCount: 0, retryLimit: 0 }, {
      db: app.db,
      config,
      log,
    } as never);
    const { rows } = await app.db.query<{ key: string }>(
      'SELECT key FROM auth_attempts WHERE key LIKE $1 ORDER BY key',
      [`${key}:%`],
    );
    // The 29-day-old success still marks a known address (KNOWN_ADDRESS_DAYS = 30).
    expect(rows.map((row) => row.key)).toEqual([`${key}:known`, `${key}:recent`]);
  });
});
