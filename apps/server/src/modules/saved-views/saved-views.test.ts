import { SAVED_VIEWS_PER_LIST_MAX, type SavedView } from '@pledgewatch/contract';
import { describe, expect, it } from 'vitest';
import { bearer, buildTestApp, createSignedInUser, type TestUser } from '../../testing/test-app.ts';

const { app } = await buildTestApp();

const call = (user: TestUser, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  app.inject({ method, url, payload, headers: bearer(user.token) });

async function save(user: TestUser, body: Record<string, unknown>): Promise<SavedView> {
  const response = await call(user, 'POST', '/api/v1/saved-views', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<SavedView>();
}

const listed = async (user: TestUser, list: string) => {
  const response = await call(user, 'GET', `/api/v1/saved-views?list=${list}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ items: SavedView[] }>().items;
};

describe('saved views (issue #24 item 13)', () => {
  it('saves, lists by name, renames, replaces the filters and deletes a view of one list', async () => {
    const user = await createSignedInUser(app, { role: 'viewer' });
    const critical = await save(user, {
      list: 'events',
      name: '  Критичные  ',
      query: 'severity=critical&read=false&sort=severity&order=asc',
    });
    expect(critical).toMatchObject({
      list: 'events',
      name: 'Критичные',
      query: 'severity=critical&read=false&sort=severity&order=asc',
      isDefault: false,
    });
    await save(user, { list: 'events', name: 'Аресты', query: 'type=arrest_added' });
    await save(user, { list: 'registry', name: 'Истекают', query: 'lapsing=true' });
    expect((await listed(user, 'events')).map((view) => view.name)).toEqual(['Аресты', 'Критичные']);
    expect((await listed(user, 'registry')).map((view) => view.query)).toEqual(['lapsing=true']);

    const renamed = await call(user, 'PATCH', `/api/v1/saved-views/${critical.id}`, {
      name: 'Критичные непрочитанные',
      query: 'severity=critical',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Критичные непрочитанные', query: 'severity=critical' });

    const removed = await call(user, 'DELETE', `/api/v1/saved-views/${critical.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await listed(user, 'events')).map((view) => view.name)).toEqual(['Аресты']);
    expect((await call(user, 'DELETE', `/api/v1/saved-views/${critical.id}`)).statusCode).toBe(404);
  });

  it('keeps only the list’s filter and sort keys: the page, an open record and unknown keys are dropped', async () => {
    const user = await createSignedInUser(app);
    const view = await save(user, {
      list: 'registry',
      name: 'Мои',
      query: '?vin=XTA&page=3&pageSize=50&event=abc&evil=1&pledgor=&kind=creation,change',
    });
    expect(view.query).toBe('vin=XTA&kind=creation,change');
    const items = await save(user, {
      list: 'items',
      name: 'Паспорта',
      query: 'entity=passport&item=x&sort=label',
    });
    expect(items.query).toBe('entity=passport&sort=label');
  });

  it('another user’s view, even in the same organisation, is not found; the menu shows only one’s own', async () => {
    const owner = await createSignedInUser(app);
    const colleague = await createSignedInUser(app, { organisationId: owner.organisationId });
    const stranger = await createSignedInUser(app);
    const view = await save(owner, { list: 'items', name: 'Мой вид', query: 'status=all' });
    for (const other of [colleague, stranger]) {
      const renamed = await call(other, 'PATCH', `/api/v1/saved-views/${view.id}`, { name: 'Чужой' });
      expect(renamed.statusCode).toBe(404);
      expect(renamed.json().message).toBe('Сохранённый вид не найден');
      expect((await call(other, 'DELETE', `/api/v1/saved-views/${view.id}`)).statusCode).toBe(404);
      expect(await listed(other, 'items')).toEqual([]);
    }
    expect((await listed(owner, 'items')).map((item) => item.name)).toEqual(['Мой вид']);
  });

  it('refuses an empty or long name, a taken name (any case), an unknown list and a long query, in Russian', async () => {
    const user = await createSignedInUser(app);
    await save(user, { list: 'events', name: 'Неделя', query: '' });
    const refused = async (body: object, field: string, message: string) => {
      const response = await call(user, 'POST', '/api/v1/saved-views', body);
      expect(response.statusCode, response.body).toBe(422);
      const answer = response.json<{ message: string; fieldErrors?: { field: string; message: string }[] }>();
      expect(JSON.stringify(answer), field).toContain(message);
    };
    await refused({ list: 'events', name: '   ', query: '' }, 'name', 'Обязательное поле');
    await refused({ list: 'events', name: 'я'.repeat(101), query: '' }, 'name', '100');
    await refused(
      { list: 'events', name: 'НЕДЕЛЯ', query: '' },
      'name',
      'Вид с таким названием уже есть в этом списке',
    );
    await refused({ list: 'checks', name: 'Вид', query: '' }, 'list', 'Неизвестный список');
    await refused(
      { list: 'events', name: 'Длинный', query: `search=${'a'.repeat(2000)}` },
      'query',
      'Слишком много фильтров',
    );
    // The same name in another list is another view.
    await save(user, { list: 'registry', name: 'Неделя', query: '' });
    const view = await save(user, { list: 'events', name: 'Месяц', query: '' });
    const rename = await call(user, 'PATCH', `/api/v1/saved-views/${view.id}`, { name: 'неделя' });
    expect(rename.statusCode).toBe(422);
    expect(rename.json().fieldErrors).toEqual([
      { field: 'name', message: 'Вид с таким названием уже есть в этом списке' },
    ]);
    expect((await call(user, 'GET', '/api/v1/saved-views')).statusCode).toBe(422);
  });

  it(`allows ${SAVED_VIEWS_PER_LIST_MAX} views per list and says so in Russian for one more`, async () => {
    const user = await createSignedInUser(app);
    await app.db.query(
      `INSERT INTO saved_views (organisation_id, user_id, list, name, query)
       SELECT $1, $2, 'events', 'Вид ' || n, '' FROM generate_series(1, $3::int - 1) AS n`,
      [user.organisationId, user.id, SAVED_VIEWS_PER_LIST_MAX],
    );
    await save(user, { list: 'events', name: 'Последний', query: '' });
    const refused = await call(user, 'POST', '/api/v1/saved-views', {
      list: 'events',
      name: 'Лишний',
      query: '',
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe(
      `В этом списке уже ${SAVED_VIEWS_PER_LIST_MAX} сохранённых видов: удалите ненужный, чтобы сохранить новый`,
    );
    // Another list has room of its own.
    await save(user, { list: 'items', name: 'Лишний', query: '' });
  });

  it('keeps one default view per list: marking another moves the mark, false takes it off', async () => {
    const user = await createSignedInUser(app);
    const first = await save(user, { list: 'events', name: 'Первый', query: 'read=false', isDefault: true });
    const second = await save(user, { list: 'events', name: 'Второй', query: 'severity=high' });
    const other = await save(user, { list: 'items', name: 'Объекты', query: '', isDefault: true });
    const defaults = async () =>
      [...(await listed(user, 'events')), ...(await listed(user, 'items'))]
        .filter((view) => view.isDefault)
        .map((view) => view.id);
    expect(await defaults()).toEqual([first.id, other.id]);
    await call(user, 'PATCH', `/api/v1/saved-views/${second.id}`, { isDefault: true });
    expect(await defaults()).toEqual([second.id, other.id]);
    await call(user, 'PATCH', `/api/v1/saved-views/${second.id}`, { isDefault: false });
    expect(await defaults()).toEqual([other.id]);
  });

  it('goes with its user and with its organisation (no orphans)', async () => {
    const user = await createSignedInUser(app);
    const colleague = await createSignedInUser(app, { organisationId: user.organisationId });
    await save(user, { list: 'events', name: 'Вид', query: '' });
    await save(colleague, { list: 'events', name: 'Вид', query: '' });
    const count = async () =>
      (
        await app.db.query<{ count: number }>(
          'SELECT count(*)::int AS count FROM saved_views WHERE organisation_id = $1',
          [user.organisationId],
        )
      ).rows[0]!.count;
    expect(await count()).toBe(2);
    await app.db.query('DELETE FROM users WHERE id = $1', [user.id]);
    expect(await count()).toBe(1);
    await app.db.query('DELETE FROM organisations WHERE id = $1', [user.organisationId]);
    expect(await count()).toBe(0);
  });
});
