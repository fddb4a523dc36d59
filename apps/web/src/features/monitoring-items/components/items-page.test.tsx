import { itemsResponseSchema, monitoringEndpoints } from '@pledgewatch/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { paths } from '@/config/paths';
import { meQueryOptions } from '@/lib/auth';
import { meAnswer, vinItemFixture } from '@/testing/fixtures';
import { renderRoute, stubApi, textsOf, visibleText } from '@/testing/render-route';
import { itemsQueryOptions } from '../api/get-items';
import ItemsPage from './items-page';
import { parseItemsView, toItemsQuery } from './use-items-view';

const item = vinItemFixture;

afterEach(() => vi.unstubAllGlobals());

const render = async (
  role: 'analyst' | 'viewer',
  url = paths.monitoringItems.getHref(),
  totals = { total: 1, totalIsEstimate: false },
) => {
  const api = stubApi([
    meAnswer(role),
    {
      path: monitoringEndpoints.items.path,
      schema: itemsResponseSchema,
      body: { items: [item], ...totals },
    },
  ]);
  const view = parseItemsView(new URL(url, 'http://localhost').searchParams);
  const html = await renderRoute({
    path: paths.monitoringItems.path,
    url,
    element: <ItemsPage />,
    prefetch: (queryClient) =>
      Promise.all([
        queryClient.prefetchQuery(meQueryOptions()),
        queryClient.prefetchQuery(itemsQueryOptions(toItemsQuery(view))),
      ]),
  });
  return { html, api };
};

describe('monitoring items route', () => {
  it('lists the items the API answers', async () => {
    const { html, api } = await render('analyst');
    expect(api.requested).toEqual(
      expect.arrayContaining([expect.stringMatching(/^\/api\/v1\/monitoring\/items\?/)]),
    );
    expect(textsOf(html, 'h1')).toEqual(['Объекты мониторинга']);
    const text = visibleText(html);
    expect(text).toContain('XTA210990Y2765432');
    expect(text).toContain('Lada 2109');
    expect(text).toContain('КД-15/2024');
  });

  it('asks the server for the page and search in the URL', async () => {
    const { api } = await render('analyst', `${paths.monitoringItems.getHref()}?search=XTA&page=2`);
    const asked = api.requested.find((url) => url.startsWith(monitoringEndpoints.items.path));
    expect(asked).toContain('search=XTA');
    expect(asked).toContain('page=2');
  });

  it('says an estimated total is one, above the list and in the pager; an exact one as it is', async () => {
    const estimated = visibleText(
      (await render('analyst', undefined, { total: 190_000, totalIsEstimate: true })).html,
    ).replace(/\s/g, ' ');
    expect(estimated).toContain('Всего: около 190 000 объектов');
    expect(estimated).toContain('1–25 из примерно 190 000');
    const exact = visibleText(
      (await render('analyst', undefined, { total: 200_000, totalIsEstimate: false })).html,
    ).replace(/\s/g, ' ');
    expect(exact).toContain('Всего: 200 000 объектов');
    expect(exact).toContain('1–25 из 200 000');
    expect(exact).not.toContain('примерно');
  });

  it('offers no row selection to a viewer', async () => {
    const analyst = await render('analyst');
    const viewer = await render('viewer');
    expect(analyst.html).toContain('type="checkbox"');
    expect(viewer.html).not.toContain('type="checkbox"');
  });
});
