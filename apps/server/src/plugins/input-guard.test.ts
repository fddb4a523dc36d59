import { describe, expect, it } from 'vitest';
import { bearer, buildTestApp, createSignedInUser } from '../testing/test-app.ts';

const { app } = await buildTestApp();
const admin = await createSignedInUser(app, { role: 'admin' });

const NUL = '\u0000';

/** Every refusal is the same: 422, the one code, a Russian message. */
function expectRefused(response: { statusCode: number; json: () => unknown; body: string }) {
  expect(response.statusCode, response.body).toBe(422);
  const body = response.json() as { code: string; message: string };
  expect(body.code).toBe('INVALID_CHARACTERS');
  expect(body.message).toMatch(/недопустимый символ/);
}

function multipart(parts: { name: string; filename?: string; value: string }[]) {
  const boundary = '----pwtest';
  const body = parts
    .map(
      (part) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${
          part.filename === undefined ? '' : `; filename*=UTF-8''${encodeURIComponent(part.filename)}`
        }\r\n${part.filename === undefined ? '' : 'Content-Type: text/csv\r\n'}\r\n${part.value}\r\n`,
    )
    .join('');
  return { payload: `${body}--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` };
}

describe('a NUL character anywhere in a request is refused with 422 at the edge', () => {
  it('the unauthenticated login form', async () => {
    for (const form of [
      { username: `admin${NUL}@test.ru`, password: 'x' },
      { username: admin.email, password: `pass${NUL}word` },
    ]) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ grant_type: 'password', ...form }).toString(),
      });
      expectRefused(response);
    }
  });

  it('a JSON field deep inside the body, escaped or raw, and a key', async () => {
    const deep = {
      name: 'Правило',
      method: 'email',
      recipients: ['risk@bank.test'],
      itemFilter: { label: `Лада${NUL}`, contractNumber: null },
    };
    const escaped = await app.inject({
      method: 'POST',
      url: '/api/v1/monitoring/notifications/settings',
      headers: { ...bearer(admin.token), 'content-type': 'application/json' },
      payload: JSON.stringify(deep),
    });
    expectRefused(escaped);
    expect(escaped.json<{ fieldErrors: { field: string }[] }>().fieldErrors[0]?.field).toBe(
      'itemFilter.label',
    );

    const inArray = await app.inject({
      method: 'POST',
      url: '/api/v1/monitoring/notifications/settings',
      headers: bearer(admin.token),
      payload: {
        ...deep,
        itemFilter: { label: null, contractNumber: null },
        recipients: [`a${NUL}@bank.test`],
      },
    });
    expectRefused(inArray);

    const key = await app.inject({
      method: 'PATCH',
      url: '/api/v1/user/profile',
      headers: { ...bearer(admin.token), 'content-type': 'application/json' },
      payload: `{"fullName":"Имя","x\\u0000":1}`,
    });
    expectRefused(key);
  });

  it('a search query parameter, percent-encoded or raw', async () => {
    for (const url of [
      '/api/v1/monitoring/items?search=%00',
      '/api/v1/monitoring/items?search=ab%00cd',
      '/api/v1/users?search=%00',
    ]) {
      expectRefused(await app.inject({ method: 'GET', url, headers: bearer(admin.token) }));
    }
  });

  it('a path parameter, also on routes that do not exist and without a session', async () => {
    for (const url of [
      '/api/v1/monitoring/one-time-checks/%00',
      '/api/v1/monitoring/check-runs/ab%00',
      '/api/v1/no-such/%00',
      '/%00',
    ]) {
      expectRefused(await app.inject({ method: 'GET', url, headers: bearer(admin.token) }));
    }
    expectRefused(await app.inject({ method: 'GET', url: '/api/v1/auth/me?x=%00' }));
  });

  it('a multipart file name or text field', async () => {
    const named = multipart([
      { name: 'file', filename: `items${NUL}.csv`, value: 'vin\nXTA21099012345678\n' },
    ]);
    expectRefused(
      await app.inject({
        method: 'POST',
        url: '/api/v1/monitoring/uploads?kind=items',
        headers: { ...bearer(admin.token), 'content-type': named.contentType },
        payload: named.payload,
      }),
    );
    const field = multipart([
      { name: 'note', value: `x${NUL}` },
      { name: 'file', filename: 'items.csv', value: 'vin\nXTA21099012345678\n' },
    ]);
    expectRefused(
      await app.inject({
        method: 'POST',
        url: '/api/v1/monitoring/uploads?kind=items',
        headers: { ...bearer(admin.token), 'content-type': field.contentType },
        payload: field.payload,
      }),
    );
  });

  it('ordinary text, including the characters around NUL, still passes', async () => {
    const response = await app.inject({
      method: 'PATCH',
      url: '/api/v1/user/profile',
      headers: bearer(admin.token),
      payload: { fullName: 'Ольга %00 \u0001 Проверкина' },
    });
    expect(response.statusCode, response.body).toBe(200);
    const search = await app.inject({
      method: 'GET',
      url: '/api/v1/monitoring/items?search=%2500',
      headers: bearer(admin.token),
    });
    expect(search.statusCode, search.body).toBe(200);
  });
});
