import { afterEach, describe, expect, it, vi } from 'vitest';
import { paths } from '@/config/paths';
import { renderRoute, stubApi, textsOf, visibleText } from '@/testing/render-route';
import OneTimeCheckPage from './one-time-check-page';

afterEach(() => vi.unstubAllGlobals());

const render = async (search: string) => {
  const api = stubApi([]);
  const html = await renderRoute({
    path: paths.oneTimeCheck.path,
    url: `${paths.oneTimeCheck.getHref()}${search}`,
    element: <OneTimeCheckPage />,
  });
  return { html, api };
};

describe('one-time check route', () => {
  it('prefills a VIN from the URL and shows what it decodes to before any source is asked', async () => {
    const { html, api } = await render('?vin=XTA210990Y2765432');
    expect(api.requested).toEqual([]);
    expect(textsOf(html, 'h1')).toHaveLength(1);
    expect(html).toContain('data-testid="vin-preview"');
    expect(textsOf(html, 'dt')).toEqual(expect.arrayContaining(['Изготовитель', 'Код изготовителя (WMI)']));
    expect(textsOf(html, 'dd')).toEqual(expect.arrayContaining(['XTA']));
  });

  it('shows no decoding without a VIN', async () => {
    const { html } = await render('');
    expect(html).not.toContain('data-testid="vin-preview"');
    expect(visibleText(html)).not.toContain('Код изготовителя (WMI)');
  });
});
