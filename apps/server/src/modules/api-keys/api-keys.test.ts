import type { CreatedApiKey } from '@pledgewatch/contract';
import { describe, expect, it } from 'vitest';
import { bearer, buildTestApp, createSignedInUser, type TestUser } from '../../testing/test-app.ts';
import { randomVin } from '../checks/testing/checks-test-helpers.ts';

const { app } = await buildTestApp();

async function createKey(admin: TestUser, body: Record<string, unknown>): Promise<CreatedApiKey> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/api-keys',
    payload: body,
    headers: bearer(admin.token),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<CreatedApiKey>();
}
const call = (key: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  app.inject({ method, url, payload, headers: bearer(key) });

describe('API keys (issue #26)', () => {
  it('an admin creates a key whose secret is shown once and kept only as a hash; it is listed with its last use', async () => {
    const admin = await createSignedInUser(app, { role: 'admin' });
    const key = await createKey(admin, { name: 'АБС: выдача кредитов', role: 'analyst' });
    expect(key.secret).toMatch(/^pwk_[A-Za-z0-9_-]{32}$/);
    expect(key.prefix).toBe(key.secret.slice(0, 10));
    const { rows } = await app.db.query('SELECT * FROM api_keys WHERE id = $1', [key.id]);
    expect(JSON.stringify(rows)).not.toContain(key.secret);
    const listed = async () =>
      (await app.inject({ method: 'GET', url: '/api/v1/api-keys', headers: bearer(admin.token) })).json<{
        items: { id: string; lastUsedAt: string | null; status: string; secret?: string }[];
      }>().items;
    expect((await listed())[0]).toMatchObject({ id: key.id, lastUsedAt: null, status: 'active' });
    expect((await listed())[0]!.secret).toBeUndefined();
    expect((await call(key.secret, 'GET', '/api/v1/monitoring/items')).statusCode).toBe(200);
    expect((await listed())[0]!.lastUsedAt).not.toBeNull();
  });

  it('a key works in its organisation with its role, and what it does is in the audit log under its name', async () => {
    const admin = await createSignedInUser(app, { role: 'admin' });
    const analystKey = await createKey(admin, { name: 'Кредитный конвейер', role: 'analyst' });
    const viewerKey = await createKey(admin, { name: 'Отчёты', role: 'viewer' });
    const vin = randomVin('XTA');
    const added = await call(analystKey.secret, 'POST', '/api/v1/monitoring/regular-check/form-vin', {
      rows: [{ vin }],
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(
      (
        await call(viewerKey.secret, 'POST', '/api/v1/monitoring/regular-check/form-vin', {
          rows: [{ vin: randomVin() }],
        })
      ).statusCode,
    ).toBe(403);
    const audit = await app.inject({ method: 'GET', url: '/api/v1/audit', headers: bearer(admin.token) });
    const entries = audit.json<{
      items: { action: string; actor: { name?: string; fullName?: string } | null }[];
    }>().items;
    const byKey = entries.find((entry) => entry.action === 'monitoring.items_added');
    expect(JSON.stringify(byKey?.actor)).toContain('Ключ API «Кредитный конвейер»');
    // Another organisation's data stays out of reach.
    const other = await createSignedInUser(app, { role: 'admin' });
    const otherItems = await app.inject({
      method: 'GET',
      url: '/api/v1/monitoring/items',
      headers: bearer(other.token),
    });
    expect(otherItems.json<{ total: number }>().total).toBe(0);
    const mine = await call(analystKey.secret, 'GET', '/api/v1/monitoring/items');
    expect(mine.json<{ total: number }>().total).toBe(1);
  });

  it('a key never manages users, sessions or keys, and never opens the web app', async () => {
    const admin = await createSignedInUser(app, { role: 'admin' });
    const key = await createKey(admin, { name: 'Админский ключ', role: 'admin' });
    for (const [method, url] of [
      ['GET', '/api/v1/users'],
      ['GET', '/api/v1/api-keys'],
      ['POST', '/api/v1/api-keys'],
      ['GET', '/api/v1/user/profile'],
      ['DELETE', '/api/v1/auth/logout'],
    ] as const) {
      const response = await call(
        key.secret,
        method,
        url,
        method === 'POST' ? { name: 'x', role: 'admin' } : undefined,
      );
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json<{ message: string }>().message).toMatch(/Ключ API не управляет/);
    }
    // As a cookie (the web app's only way in) the key is refused.
    const asCookie = await app.inject({
      method: 'GET',
      url: '/api/v1/monitoring/items',
      cookies: { auth_token: key.secret },
    });
    expect(asCookie.statusCode).toBe(401);
    // Typed into the sign-in form, as the password of its service account or of the admin: refused.
    const { rows } = await app.db.query<{ email: string }>(
      'SELECT u.email FROM users u JOIN api_keys k ON k.user_id = u.id WHERE k.id = $1',
      [key.id],
    );
    for (const username of [rows[0]!.email, admin.email]) {
      const login = await app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: new URLSearchParams({ grant_type: 'password', username, password: key.secret }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(login.statusCode).toBe(401);
    }
    // Its service account is no member: not listed, not editable.
    const members = await app.inject({ method: 'GET', url: '/api/v1/users', headers: bearer(admin.token) });
    expect(members.body).not.toContain('Админский ключ');
  });

  it('a revoked, expired, malformed or unknown key gets the same 401, with no hint whether it existed', async () => {
    const admin = await createSignedInUser(app, { role: 'admin' });
    const revoked = await createKey(admin, { name: 'Старый', role: 'analyst' });
    const expired = await createKey(admin, { name: 'Истёкший', role: 'analyst', expiresOn: '2099-01-01' });
    expect((await call(revoked.secret, 'GET', '/api/v1/monitoring/items')).statusCode).toBe(200);
    const revoke = await app.inject({
      method: 'DELETE',
      url: `/api/v1/api-keys/${revoked.id}`,
      headers: bearer(admin.token),
    });
    expect(revoke.json<{ status: string }>().status).toBe('revoked');
    await app.db.query(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      expired.id,
    ]);
    const answers = await Promise.all(
      [
        revoked.secret,
        expired.secret,
        'pwk_not-a-key',
        `pwk_${'x'.repeat(300)}`,
        `${revoked.secret.slice(0, -1)}A`,
      ].map(async (key) => {
        const response = await call(key, 'GET', '/api/v1/monitoring/items');
        return `${response.statusCode} ${response.json<{ message: string }>().message}`;
      }),
    );
    expect(new Set(answers)).toEqual(
      new Set(['401 Ключ API недействителен: неизвестен, отозван или истёк срок его действия']),
    );
  });

  it('each key has its own request rate: 429 with Retry-After past it, other keys unaffected', async () => {
    const admin = await createSignedInUser(app, { role: 'admin' });
    const slow = await createKey(admin, { name: 'Медленный', role: 'viewer', rateLimitPerMinute: 3 });
    const other = await createKey(admin, { name: 'Другой', role: 'viewer', rateLimitPerMinute: 3 });
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await call(slow.secret, 'GET', '/api/v1/monitoring/items')).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await call(slow.secret, 'GET', '/api/v1/monitoring/items');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json<{ message: string }>().message).toMatch(/не больше 3 в минуту/);
    expect((await call(other.secret, 'GET', '/api/v1/monitoring/items')).statusCode).toBe(200);
  });

  it('only an admin signed in as a person creates keys; a past expiry and a bad role are refused in Russian', async () => {
    const admin = await createSignedInUser(app, { role: 'admin' });
    const analyst = await createSignedInUser(app, { role: 'analyst', organisationId: admin.organisationId });
    const byAnalyst = await app.inject({
      method: 'POST',
      url: '/api/v1/api-keys',
      payload: { name: 'x', role: 'viewer' },
      headers: bearer(analyst.token),
    });
    expect(byAnalyst.statusCode).toBe(403);
    const past = await app.inject({
      method: 'POST',
      url: '/api/v1/api-keys',
      payload: { name: 'x', role: 'viewer', expiresOn: '2020-01-01' },
      headers: bearer(admin.token),
    });
    expect(past.statusCode).toBe(422);
    expect(past.body).toContain('Срок действия не может закончиться в прошлом');
    const badRole = await app.inject({
      method: 'POST',
      url: '/api/v1/api-keys',
      payload: { name: 'x', role: 'root' },
      headers: bearer(admin.token),
    });
    expect(badRole.statusCode).toBe(422);
  });
});
