// @vitest-environment happy-dom
import { type SavedView, savedViewSchema, savedViewsResponseSchema } from '@pledgewatch/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderDom } from '@/testing/render-dom';
import { stubApi } from '@/testing/render-route';
import { SavedViewsMenu } from './saved-views-menu';

const view = (n: number, name: string, query: string, isDefault = false): SavedView => ({
  id: `7d0f2c1e-0000-4000-8000-00000000000${n}`,
  list: 'events',
  name,
  query,
  isDefault,
  createdAt: '2026-11-20T08:00:00.000Z',
  updatedAt: '2026-11-20T08:00:00.000Z',
});
const critical = view(1, 'Критичные', 'severity=critical&read=false');
const arrests = view(2, 'Аресты', 'type=arrest_added', true);

/** The URL's query string as the router holds it, for the test to read. */
function Search() {
  return <output data-testid="search">{useLocation().search}</output>;
}

const stub = (views: SavedView[]) =>
  stubApi([
    { method: 'GET', path: '/api/v1/saved-views', schema: savedViewsResponseSchema, body: { items: views } },
    {
      method: 'POST',
      path: '/api/v1/saved-views',
      schema: savedViewSchema,
      body: view(3, 'Розыск', 'source=wanted'),
    },
    { path: `/api/v1/saved-views/${critical.id}`, schema: savedViewSchema, body: critical },
  ]);

const render = (query: string) =>
  renderDom({
    path: '/monitoring/events',
    url: `/monitoring/events${query}`,
    element: (
      <>
        <SavedViewsMenu list="events" />
        <Search />
      </>
    ),
  });

const search = () => screen.getByTestId('search').textContent;
const mutations = (api: ReturnType<typeof stub>) => api.calls.filter((call) => call.method !== 'GET');

describe('saved views menu', () => {
  it('opens a view: the list takes its filters and sort, the page and the open record are left behind', async () => {
    stub([arrests, critical]);
    const { user } = render('?source=wanted&page=3&event=e1');
    await user.click(await screen.findByRole('button', { name: 'Виды' }));
    const menu = await screen.findByRole('menu', { name: 'Сохранённые виды' });
    expect(within(menu).getByText('открывается по умолчанию')).toBeTruthy();
    await user.click(within(menu).getByText('Критичные'));
    await waitFor(() => expect(search()).toBe('?severity=critical&read=false'));
    expect(await screen.findByRole('button', { name: 'Вид: Критичные' })).toBeTruthy();
  });

  it('saves the current filters (only the list’s own keys) under a name, as the default if asked', async () => {
    const api = stub([]);
    const { user } = render('?source=wanted&page=3&event=e1&sort=severity');
    await user.click(await screen.findByRole('button', { name: 'Виды' }));
    expect(
      (await screen.findByRole('menuitem', { name: 'Управлять видами…' })).getAttribute('aria-disabled'),
    ).toBe('true');
    await user.click(screen.getByRole('menuitem', { name: 'Сохранить текущий вид…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Сохранить вид' });
    const submit = within(dialog).getByRole('button', { name: 'Сохранить' });
    expect(submit.hasAttribute('disabled')).toBe(true);
    await user.type(within(dialog).getByLabelText('Название'), '  Розыск ');
    await user.click(within(dialog).getByLabelText('Открывать этот вид, когда список открыт без фильтров'));
    await user.click(submit);
    await waitFor(() =>
      expect(mutations(api)).toEqual([
        {
          method: 'POST',
          url: '/api/v1/saved-views',
          body: { list: 'events', name: 'Розыск', query: 'source=wanted&sort=severity', isDefault: true },
        },
      ]),
    );
    expect(await screen.findByText('Вид «Розыск» сохранён')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Сохранить вид' })).toBeNull());
  });

  it('opens the default view when the list is opened without a query string, and only then', async () => {
    stub([arrests, critical]);
    render('');
    await waitFor(() => expect(search()).toBe('?type=arrest_added'));
  });

  it('leaves a list opened with filters as it is, even with a default view', async () => {
    const api = stub([arrests, critical]);
    render('?severity=high');
    await waitFor(() =>
      expect(api.requested.some((url) => url.startsWith('/api/v1/saved-views?'))).toBe(true),
    );
    expect(await screen.findByRole('button', { name: 'Виды' })).toBeTruthy();
    expect(search()).toBe('?severity=high');
  });

  it('renames, marks as default and deletes a view from the manage dialog', async () => {
    const api = stub([arrests, critical]);
    const { user } = render('?severity=high');
    await user.click(await screen.findByRole('button', { name: 'Виды' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Управлять видами…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Сохранённые виды' });
    await user.click(within(dialog).getByRole('button', { name: 'Переименовать «Критичные»' }));
    const field = within(dialog).getByLabelText('Новое название для «Критичные»');
    await user.clear(field);
    await user.type(field, 'Критичные непрочитанные{Enter}');
    await user.click(within(dialog).getByRole('button', { name: 'Открывать «Критичные» по умолчанию' }));
    await user.click(within(dialog).getByRole('button', { name: 'Удалить «Критичные»' }));
    const url = `/api/v1/saved-views/${critical.id}`;
    await waitFor(() =>
      expect(mutations(api)).toEqual([
        { method: 'PATCH', url, body: { name: 'Критичные непрочитанные' } },
        { method: 'PATCH', url, body: { isDefault: true } },
        { method: 'DELETE', url, body: {} },
      ]),
    );
    expect(await screen.findByText('Вид «Критичные» удалён')).toBeTruthy();
  });
});
