// @vitest-environment happy-dom
import { itemsResponseSchema, monitoringEndpoints } from '@pledgewatch/contract';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { paths } from '@/config/paths';
import { meAnswer, savedViewsAnswer, vinItemFixture } from '@/testing/fixtures';
import { renderDom } from '@/testing/render-dom';
import { stubApi } from '@/testing/render-route';
import ItemsPage from './items-page';

const item = vinItemFixture;

describe('objects: a saved view opened from the menu', () => {
  it('fills the search box with the view’s search and asks the server for the view’s filters', async () => {
    const api = stubApi([
      meAnswer('analyst'),
      {
        path: monitoringEndpoints.items.path,
        schema: itemsResponseSchema,
        body: { items: [item], total: 1, totalIsEstimate: false },
      },
      savedViewsAnswer({ list: 'items', name: 'Архив Лад', query: 'search=lada&status=archived' }),
    ]);
    const { user } = renderDom({
      path: paths.monitoringItems.path,
      url: `${paths.monitoringItems.getHref()}?search=xta`,
      element: <ItemsPage />,
    });
    const box = (await screen.findByRole('searchbox')) as HTMLInputElement;
    expect(box.value).toBe('xta');
    await user.click(await screen.findByRole('button', { name: 'Виды' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Архив Лад' }));
    await waitFor(() => expect((screen.getByRole('searchbox') as HTMLInputElement).value).toBe('lada'));
    await waitFor(() =>
      expect(
        api.requested.some(
          (url) =>
            url.startsWith(`${monitoringEndpoints.items.path}?`) &&
            url.includes('search=lada') &&
            url.includes('status=archived'),
        ),
      ).toBe(true),
    );
    // The box's own debounce must not write the old text back over the view.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect((screen.getByRole('searchbox') as HTMLInputElement).value).toBe('lada');
    expect(
      api.requested.filter((url) => url.startsWith(`${monitoringEndpoints.items.path}?`)).at(-1),
    ).toContain('search=lada');
  });
});
