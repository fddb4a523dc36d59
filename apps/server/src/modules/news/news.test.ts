import { NEWS_STAFF_ONLY_MESSAGE } from '@pledgewatch/contract';
import { describe, expect, it } from 'vitest';
import { DEMO_NEWS } from '../../demo/demo-news.ts';
import { DEMO_ACCOUNTS, seedDemo } from '../../demo/demo-seed.ts';
import { bearer, buildTestApp, createSignedInUser, signIn, type TestUser } from '../../testing/test-app.ts';

const { app } = await buildTestApp();

type Json = Record<string, unknown>;
const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token: string, payload?: object) =>
  app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

let counter = 0;
async function publish(staff: TestUser, overrides: Json = {}): Promise<Json> {
  const response = await call('POST', '/api/v1/news', staff.token, {
    title: `Новость ${++counter}`,
    body: `Текст **${counter}**`,
    ...overrides,
  });
  expect(response.statusCode).toBe(201);
  return response.json();
}
const unread = async (user: TestUser) =>
  (await call('GET', '/api/v1/news/unread-count', user.token)).json().count as number;
const listPage = async (user: TestUser, query = '') => {
  const response = await call('GET', `/api/v1/news${query}`, user.token);
  expect(response.statusCode).toBe(200);
  return response.json() as { items: Json[]; total: number; unreadCount: number };
};

// News are platform-wide and this file shares one database, so assertions are relative to what
// each test itself adds.
describe('GET /api/v1/news', () => {
  it('lists pinned first, then newest first, paged on the server', async () => {
    const staff = await createSignedInUser(app, { role: 'admin', isStaff: true });
    const reader = await createSignedInUser(app);
    const before = (await listPage(reader)).total;
    const first = await publish(staff);
    const second = await publish(staff);
    const third = await publish(staff);
    const pinnedOld = await publish(staff, { pinned: true });
    // Dated explicitly so the order does not depend on the clock's resolution.
    await app.db.query(
      `UPDATE news_items SET published_at = now() - make_interval(mins => x.m)
         FROM (VALUES ($1::uuid, 30), ($2::uuid, 20), ($3::uuid, 10), ($4::uuid, 60)) AS x(id, m)
        WHERE news_items.id = x.id`,
      [first.id, second.id, third.id, pinnedOld.id],
    );

    const page1 = await listPage(reader, '?page=1&pageSize=2');
    expect(page1.total).toBe(before + 4);
    expect(page1.items.map((item) => item.id)).toEqual([pinnedOld.id, third.id]);
    const page2 = await listPage(reader, '?page=2&pageSize=2');
    expect(page2.items.map((item) => item.id)).toEqual([second.id, first.id]);
    expect(page2.items[0]).toMatchObject({
      title: second.title,
      body: second.body,
      pinned: false,
      draft: false,
      read: false,
      authorName: 'Тестовый Пользователь',
    });
    expect(Date.parse(page2.items[0]!.publishedAt as string)).toBeLessThan(
      Date.parse(page1.items[1]!.publishedAt as string),
    );
  });

  it('needs a session and refuses a page size over the limit in Russian', async () => {
    const anonymous = await app.inject({ method: 'GET', url: '/api/v1/news' });
    expect(anonymous.statusCode).toBe(401);
    const reader = await createSignedInUser(app);
    const big = await call('GET', '/api/v1/news?pageSize=500', reader.token);
    expect(big.statusCode).toBe(422);
    expect(big.json().fieldErrors[0].field).toBe('pageSize');
  });

  it('shows drafts to staff only, and a draft is never unread', async () => {
    const staff = await createSignedInUser(app, { role: 'admin', isStaff: true });
    const reader = await createSignedInUser(app);
    const unreadBefore = await unread(reader);
    const draft = await publish(staff, { draft: true, title: 'Черновик новости' });
    expect(draft).toMatchObject({ draft: true, publishedAt: null });

    expect((await listPage(staff, '?pageSize=50')).items.map((item) => item.id)).toContain(draft.id);
    expect((await listPage(reader, '?pageSize=50')).items.map((item) => item.id)).not.toContain(draft.id);
    expect(await unread(reader)).toBe(unreadBefore);

    // Publishing dates it now and it becomes unread for readers.
    const published = await call('PATCH', `/api/v1/news/${draft.id}`, staff.token, { draft: false });
    expect(published.statusCode).toBe(200);
    expect(published.json().draft).toBe(false);
    expect(published.json().publishedAt).not.toBeNull();
    expect(await unread(reader)).toBe(unreadBefore + 1);
    expect((await listPage(reader, '?pageSize=50')).items.map((item) => item.id)).toContain(draft.id);
  });
});

describe('unread count and read marks', () => {
  it('counts per user: one user reading does not change another user’s count', async () => {
    const staff = await createSignedInUser(app, { role: 'admin', isStaff: true });
    const alice = await createSignedInUser(app);
    // A colleague in the same organisation: marks are per user, not per organisation.
    const bob = await createSignedInUser(app, { organisationId: alice.organisationId });
    await call('POST', '/api/v1/news/read', alice.token, { all: true });
    await call('POST', '/api/v1/news/read', bob.token, { all: true });
    expect(await unread(alice)).toBe(0);

    const one = await publish(staff);
    const two = await publish(staff);
    expect(await unread(alice)).toBe(2);
    expect(await unread(bob)).toBe(2);
    // The author has read what they wrote.
    const authorItems = (await listPage(staff, '?pageSize=50')).items;
    expect(authorItems.find((item) => item.id === one.id)?.read).toBe(true);

    const marked = await call('POST', '/api/v1/news/read', alice.token, { ids: [one.id] });
    expect(marked.statusCode).toBe(200);
    expect(marked.json()).toEqual({ marked: 1, unreadCount: 1 });
    expect(await unread(bob)).toBe(2);

    const aliceItems = (await listPage(alice, '?pageSize=50')).items;
    expect(aliceItems.find((item) => item.id === one.id)?.read).toBe(true);
    expect(aliceItems.find((item) => item.id === two.id)?.read).toBe(false);
    expect((await listPage(alice)).unreadCount).toBe(1);

    // Marking again is harmless; unknown ids are skipped.
    const again = await call('POST', '/api/v1/news/read', alice.token, {
      ids: [one.id, '00000000-0000-4000-8000-000000000000'],
    });
    expect(again.json()).toEqual({ marked: 0, unreadCount: 1 });

    const all = await call('POST', '/api/v1/news/read', bob.token, { all: true });
    expect(all.json()).toEqual({ marked: 2, unreadCount: 0 });
    expect(await unread(bob)).toBe(0);
    expect(await unread(alice)).toBe(1);
  });

  it('rejects an empty or malformed request in Russian', async () => {
    const reader = await createSignedInUser(app);
    const empty = await call('POST', '/api/v1/news/read', reader.token, {});
    expect(empty.statusCode).toBe(422);
    expect(empty.json().fieldErrors).toEqual([{ field: 'ids', message: 'Укажите новости или all: true' }]);
    const bad = await call('POST', '/api/v1/news/read', reader.token, { ids: ['nope'] });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().fieldErrors[0]).toEqual({ field: 'ids.0', message: 'Неверный идентификатор новости' });
    const anonymous = await app.inject({ method: 'GET', url: '/api/v1/news/unread-count' });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('staff-only writes', () => {
  it('answers 403 with the Russian message to everyone but staff, admins included', async () => {
    const staff = await createSignedInUser(app, { role: 'admin', isStaff: true });
    const item = await publish(staff);
    for (const role of ['admin', 'analyst', 'viewer'] as const) {
      const user = await createSignedInUser(app, { role });
      const attempts = [
        await call('POST', '/api/v1/news', user.token, { title: 'Заголовок', body: 'Текст' }),
        await call('PATCH', `/api/v1/news/${item.id}`, user.token, { title: 'Другой' }),
        await call('DELETE', `/api/v1/news/${item.id}`, user.token),
        // Even an invalid body: the permission is checked before the input.
        await call('POST', '/api/v1/news', user.token, { title: '' }),
      ];
      for (const response of attempts) {
        expect(response.statusCode).toBe(403);
        expect(response.json()).toMatchObject({ code: 'FORBIDDEN', message: NEWS_STAFF_ONLY_MESSAGE });
      }
    }
    const unchanged = (await listPage(staff, '?pageSize=50')).items.find((news) => news.id === item.id);
    expect(unchanged?.title).toBe(item.title);
  });

  it('validates title and body with Russian messages', async () => {
    const staff = await createSignedInUser(app, { role: 'admin', isStaff: true });
    const empty = await call('POST', '/api/v1/news', staff.token, { title: '   ', body: ' \n ' });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().fieldErrors).toEqual([
      { field: 'title', message: 'Обязательное поле' },
      { field: 'body', message: 'Обязательное поле' },
    ]);
    const missing = await call('POST', '/api/v1/news', staff.token, {});
    expect(missing.json().fieldErrors.map((error: Json) => error.field)).toEqual(['title', 'body']);
    const long = await call('POST', '/api/v1/news', staff.token, {
      title: 'Я'.repeat(201),
      body: 'x'.repeat(20_001),
    });
    expect(long.statusCode).toBe(422);
    expect(long.json().fieldErrors).toEqual([
      { field: 'title', message: 'Максимальная длина — 200 симв.' },
      { field: 'body', message: 'Максимальная длина — 20000 симв.' },
    ]);
    const item = await publish(staff);
    const blankTitle = await call('PATCH', `/api/v1/news/${item.id}`, staff.token, { title: '' });
    expect(blankTitle.statusCode).toBe(422);
    expect(blankTitle.json().fieldErrors).toEqual([{ field: 'title', message: 'Обязательное поле' }]);
  });

  it('edits and deletes; a missing item is a Russian 404', async () => {
    const staff = await createSignedInUser(app, { role: 'admin', isStaff: true });
    const reader = await createSignedInUser(app);
    const item = await publish(staff, { title: '  Заголовок с пробелами  ' });
    expect(item.title).toBe('Заголовок с пробелами');

    const edited = await call('PATCH', `/api/v1/news/${item.id}`, staff.token, {
      title: 'Исправленный заголовок',
      body: '- пункт 1\n- пункт 2',
      pinned: true,
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({
      title: 'Исправленный заголовок',
      body: '- пункт 1\n- пункт 2',
      pinned: true,
      publishedAt: item.publishedAt,
    });
    await call('POST', '/api/v1/news/read', reader.token, { ids: [item.id] });

    const removed = await call('DELETE', `/api/v1/news/${item.id}`, staff.token);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().message).toBe('Новость удалена');
    expect((await listPage(reader, '?pageSize=50')).items.map((news) => news.id)).not.toContain(item.id);
    const { rows } = await app.db.query('SELECT count(*)::int AS n FROM news_reads WHERE news_id = $1', [
      item.id,
    ]);
    expect(rows[0].n).toBe(0);

    for (const response of [
      await call('DELETE', `/api/v1/news/${item.id}`, staff.token),
      await call('PATCH', `/api/v1/news/${item.id}`, staff.token, { title: 'Нет' }),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'NOT_FOUND', message: 'Новость не найдена' });
    }
    const malformed = await call('DELETE', '/api/v1/news/not-a-uuid', staff.token);
    expect(malformed.statusCode).toBe(422);
    expect(malformed.json().fieldErrors).toEqual([
      { field: 'id', message: 'Неверный идентификатор новости' },
    ]);
  });

  it('records who wrote, changed and deleted news in the audit log', async () => {
    const staff = await createSignedInUser(app, { role: 'admin', isStaff: true });
    const item = await publish(staff);
    await call('PATCH', `/api/v1/news/${item.id}`, staff.token, { pinned: true });
    await call('DELETE', `/api/v1/news/${item.id}`, staff.token);
    const { rows } = await app.db.query(
      `SELECT action FROM audit_log WHERE entity = 'news' AND entity_id = $1 AND user_id = $2 ORDER BY id`,
      [item.id, staff.id],
    );
    expect(rows.map((row) => row.action)).toEqual(['news.created', 'news.updated', 'news.deleted']);
  });
});

describe('demo news', () => {
  it('are created once with the demo, unread for the analyst and read for their staff author', async () => {
    const countAll = async () =>
      (await app.db.query('SELECT count(*)::int AS n FROM news_items')).rows[0].n as number;
    const before = await countAll();
    await seedDemo(app.db);
    await seedDemo(app.db);
    expect(await countAll()).toBe(before + DEMO_NEWS.length);

    const [admin, analyst] = await Promise.all(
      DEMO_ACCOUNTS.map(async (account) => ({
        token: await signIn(app, account.email, account.password),
      })),
    );
    const analystPage = await listPage(analyst as TestUser, '?pageSize=50');
    const titles: string[] = DEMO_NEWS.map((news) => news.title);
    const demoItems = analystPage.items.filter((item) => titles.includes(item.title as string));
    // Newest first: the list reverses the oldest-first seed order.
    expect(demoItems.map((item) => item.title)).toEqual([...titles].reverse());
    expect(
      demoItems.every((item) => item.read === false && item.authorName === 'Анна Администраторова'),
    ).toBe(true);
    const adminPage = await listPage(admin as TestUser, '?pageSize=50');
    expect(
      adminPage.items.filter((item) => titles.includes(item.title as string)).every((item) => item.read),
    ).toBe(true);
  });
});
