// @vitest-environment happy-dom
import { type SearchResponse, searchEndpoints, searchResponseSchema } from '@pledgewatch/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderDom } from '@/testing/render-dom';
import { stubApi } from '@/testing/render-route';
import { HeaderSearch } from './header-search';

const ITEM = '0193a000-0000-7000-8000-000000000001';
const answer: SearchResponse = {
  query: 'xta21',
  groups: [
    {
      kind: 'items',
      label: 'Объекты мониторинга',
      total: 1200,
      more: true,
      hits: [
        {
          id: ITEM,
          title: 'XTA21099072765432',
          details: 'Lada 2109 · Активен',
          itemId: ITEM,
          itemKind: 'vin',
          at: null,
        },
      ],
    },
    { kind: 'events', label: 'События', total: 0, more: false, hits: [] },
    {
      kind: 'oneTimeChecks',
      label: 'Разовые проверки',
      total: 2,
      more: false,
      hits: [
        {
          id: 'c1',
          title: 'ПР-2026-000007',
          details: null,
          itemId: null,
          itemKind: 'vin',
          at: '2026-03-01T09:30:00.000Z',
        },
        { id: 'c2', title: 'ПР-2026-000008', details: null, itemId: null, itemKind: 'vin', at: null },
      ],
    },
  ],
};

function Where() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

const render = () =>
  renderDom({
    path: '*',
    url: '/news',
    element: (
      <>
        <input aria-label="Другое поле" />
        <HeaderSearch />
        <Where />
      </>
    ),
  });

describe('the header search', () => {
  it('opens on «/», groups the hits with their counts, and opens the chosen one with the keyboard', async () => {
    const api = stubApi([{ path: searchEndpoints.search.path, schema: searchResponseSchema, body: answer }]);
    const { user } = render();
    await user.keyboard('/');
    const box = await screen.findByRole('combobox', { name: /Поиск по объектам/ });
    await user.type(box, 'xta21');
    const results = await screen.findByRole('listbox');
    const groups = within(results).getAllByRole('group');
    // Empty kinds are left out; each group shows its count, «1200+» past the server's cap.
    expect(groups.map((group) => group.getAttribute('aria-labelledby'))).toEqual([
      'header-search-group-items',
      'header-search-group-oneTimeChecks',
    ]);
    expect(within(groups[0]!).getByText('1200+')).toBeTruthy();
    expect(within(groups[1]!).getByText('2')).toBeTruthy();
    expect(api.requested.at(-1)).toBe('/api/v1/search?q=xta21');

    const options = within(results).getAllByRole('option');
    expect(options[0]!.getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(box.getAttribute('aria-activedescendant')).toBe(options[2]!.id);
    await user.keyboard('{ArrowDown}');
    expect(box.getAttribute('aria-activedescendant')).toBe(options[0]!.id);
    await user.keyboard('{ArrowUp}{Enter}');
    await waitFor(() =>
      expect(screen.getByTestId('location').textContent).toBe('/monitoring/one-time-check/results?id=c2'),
    );
    expect(screen.queryByRole('combobox')).toBeNull();
  });

  it('asks for 3 letters or digits before it searches, and leaves «/» typed in a field alone', async () => {
    const api = stubApi([{ path: searchEndpoints.search.path, schema: searchResponseSchema, body: answer }]);
    const { user } = render();
    await user.type(screen.getByRole('textbox', { name: 'Другое поле' }), 'a/b');
    expect(screen.queryByRole('combobox')).toBeNull();
    await user.click(screen.getAllByRole('button', { name: 'Поиск' })[0]!);
    await user.type(await screen.findByRole('combobox'), 'x-2');
    expect(await screen.findByText('Введите хотя бы 3 буквы или цифры')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(api.requested).toEqual([]);
  });

  it('links an item hit to its card in the portfolio and a group to the whole filtered list', async () => {
    stubApi([{ path: searchEndpoints.search.path, schema: searchResponseSchema, body: answer }]);
    const { user } = render();
    await user.keyboard('/');
    await user.type(await screen.findByRole('combobox'), 'xta21');
    const item = await screen.findByRole('option', { name: /XTA21099072765432/ });
    expect(item.getAttribute('href')).toBe(`/monitoring/items?entity=vin&status=all&item=${ITEM}`);
    expect(screen.getByRole('link', { name: 'Показать все' }).getAttribute('href')).toBe(
      '/monitoring/items?entity=vin&status=all&search=xta21',
    );
  });
});
