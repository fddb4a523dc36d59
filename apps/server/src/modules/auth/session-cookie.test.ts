import { describe, expect, it } from 'vitest';
import { bearer, buildTestApp, createSignedInUser } from '../../testing/test-app.ts';

// app.inject comes from 127.0.0.1: trust it as the proxy that terminates TLS.
const { app, config } = await buildTestApp({ config: { trustProxy: { addresses: ['127.0.0.1'] } } });

type Injected = Awaited<ReturnType<typeof app.inject>>;

/** The Set-Cookie header for auth_token, split into its attributes (lower-cased names). */
function authCookie(response: Injected): { value: string; attributes: Map<string, string> } | undefined {
  const raw = response.headers['set-cookie'];
  const line = (Array.isArray(raw) ? raw : raw ? [raw] : []).find((cookie) =>
    cookie.startsWith('auth_token='),
  );
  if (!line) {
    return undefined;
  }
  const [pair, ...rest] = line.split(/;\s*/);
  const attributes = new Map(
    rest.map((part) => {
      const [name, ...value] = part.split('=');
      return [name!.toLowerCase(), value.join('=')] as [string, string];
    }),
  );
  return { value: decodeURIComponent(pair!.slice('auth_token='.length)), attributes };
}

const loginForm = (username: string, password: string) =>
  new URLSearchParams({ grant_type: 'password', username, password }).toString();

async function login(
  user: { email: string; password: string },
  headers: Record<string, string> = {},
): Promise<Injected> {
  return app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: loginForm(user.email, user.password),
  });
}

const meWith = (headers: Record<string, string>) =>
  app.inject({ method: 'GET', url: '/api/v1/auth/me', headers });

describe('the session cookie', () => {
  it('is set by the server at sign-in: HttpOnly, SameSite=Lax, Path=/, the session lifetime; the body keeps the OAuth2 token', async () => {
    const user = await createSignedInUser(app);
    const response = await login(user);
    expect(response.statusCode).toBe(200);
    const cookie = authCookie(response);
    expect(cookie?.value).toBe(response.json<{ access_token: string }>().access_token);
    expect(cookie?.attributes.has('httponly')).toBe(true);
    expect(cookie?.attributes.get('samesite')?.toLowerCase()).toBe('lax');
    expect(cookie?.attributes.get('path')).toBe('/');
    expect(cookie?.attributes.get('max-age')).toBe(String(config.sessionTtl));
    // Plain HTTP: a Secure cookie would not come back.
    expect(cookie?.attributes.has('secure')).toBe(false);
  });

  it('is Secure when the request came over HTTPS (through the trusted proxy)', async () => {
    const user = await createSignedInUser(app);
    const response = await login(user, { 'x-forwarded-proto': 'https' });
    expect(response.statusCode).toBe(200);
    expect(authCookie(response)?.attributes.has('secure')).toBe(true);
  });

  it('authenticates reads by itself and follows the sliding session', async () => {
    const user = await createSignedInUser(app);
    const response = await meWith({ cookie: `auth_token=${user.token}` });
    expect(response.statusCode).toBe(200);
    expect(authCookie(response)?.attributes.get('max-age')).toBe(String(config.sessionTtl));
  });

  it('Bearer still works for API clients, with or without an Origin', async () => {
    const user = await createSignedInUser(app);
    expect((await meWith(bearer(user.token))).statusCode).toBe(200);
    const write = await app.inject({
      method: 'PATCH',
      url: '/api/v1/user/profile',
      headers: { ...bearer(user.token), origin: 'https://evil.example' },
      payload: { fullName: 'Через API' },
    });
    expect(write.statusCode, write.body).toBe(200);
  });

  it('is cleared by a 401 answer', async () => {
    const response = await meWith({ cookie: 'auth_token=stale-token' });
    expect(response.statusCode).toBe(401);
    const cookie = authCookie(response);
    expect(cookie?.value).toBe('');
    const expires = cookie?.attributes.get('expires');
    expect(cookie?.attributes.get('max-age') === '0' || (expires && Date.parse(expires) < Date.now())).toBe(
      true,
    );
  });

  it('is cleared at sign-out, and the session ends', async () => {
    const user = await createSignedInUser(app);
    const response = await app.inject({
      method: 'DELETE',
      url: '/api/v1/auth/logout',
      headers: { cookie: `auth_token=${user.token}`, origin: config.appUrl, 'sec-fetch-site': 'same-origin' },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(authCookie(response)?.value).toBe('');
    expect((await meWith(bearer(user.token))).statusCode).toBe(401);
  });
});

describe('CSRF: cookie-authenticated writes come only from our own pages', () => {
  const renameWith = (token: string, headers: Record<string, string>, fullName = 'Новое имя') =>
    app.inject({
      method: 'PATCH',
      url: '/api/v1/user/profile',
      headers: { cookie: `auth_token=${token}`, ...headers },
      payload: { fullName },
    });

  it('accepts a same-origin write (Sec-Fetch-Site, or Origin of APP_URL or of the request host)', async () => {
    const user = await createSignedInUser(app);
    const cases: Record<string, string>[] = [
      { 'sec-fetch-site': 'same-origin', origin: config.appUrl },
      { origin: config.appUrl },
      { origin: 'http://localhost:3300', host: 'localhost:3300' },
    ];
    for (const headers of cases) {
      const response = await renameWith(user.token, headers);
      expect(response.statusCode, `${JSON.stringify(headers)} ${response.body}`).toBe(200);
    }
  });

  it('refuses a cross-site write with 403 and a Russian message, and nothing changes', async () => {
    const user = await createSignedInUser(app);
    const cases: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { origin: 'http://pledgewatch.test.evil.example' },
      { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
      { 'sec-fetch-site': 'same-site', origin: 'https://sub.pledgewatch.test' },
      // A browser always sends one of them on a write; without both it is no page of ours.
      {},
    ];
    for (const headers of cases) {
      const response = await renameWith(user.token, headers, 'Взломано');
      expect(response.statusCode, JSON.stringify(headers)).toBe(403);
      expect(response.json()).toMatchObject({
        code: 'CROSS_SITE_REQUEST',
        message: expect.stringMatching(/Запрос отклонён/),
      });
    }
    const me = await meWith(bearer(user.token));
    expect(me.json<{ user: { fullName: string } }>().user.fullName).not.toBe('Взломано');

    const logout = await app.inject({
      method: 'DELETE',
      url: '/api/v1/auth/logout',
      headers: { cookie: `auth_token=${user.token}`, origin: 'https://evil.example' },
    });
    expect(logout.statusCode).toBe(403);
    expect((await meWith(bearer(user.token))).statusCode).toBe(200);
  });

  it('refuses a sign-in posted by a foreign page (login CSRF), not one from our page or an API client', async () => {
    const user = await createSignedInUser(app);
    const foreign: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of foreign) {
      const response = await login(user, headers);
      expect(response.statusCode, JSON.stringify(headers)).toBe(403);
      expect(response.json()).toMatchObject({ code: 'CROSS_SITE_REQUEST' });
      expect(authCookie(response)).toBeUndefined();
    }
    expect((await login(user, { origin: config.appUrl, 'sec-fetch-site': 'same-origin' })).statusCode).toBe(
      200,
    );
    expect((await login(user)).statusCode).toBe(200);
  });
});
