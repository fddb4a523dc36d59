// @vitest-environment happy-dom
import {
  itemsResponseSchema,
  monitoringEndpoints,
  savedViewEndpoints,
  savedViewsResponseSchema,
} from '@pledgewatch/contract';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { paths } from '@/config/paths';
import { meAnswer } from '@/testing/fixtures';
import { renderDom } from '@/testing/render-dom';
import { stubApi } from '@/testing/render-route';
import ItemsPage from './items-page';

const item = {
  id: '7d0f2c1e-0000-4000-8000-000000000010',
  kind: 'vin',
  identifier: 'XTA210990Y2765432',
  displayIdentifier: 'XTA210990Y2765432',
  documentType: null,
  documentTypeLabel: null,
  label: 'Lada 2109',
  contractNumber: 'КД-15/2024',
  pledgorName: 'Петров Пётр',
  status: 'active',
  origin: 'form',
  uploadId: null,
  createdAt: '2026-02-01T09:00:00.000Z',
  updatedAt: '2026-02-01T09:00:00.000Z',
  archivedAt: null,
  lastCheckedAt: null,
  vin: {
    wmi: 'XTA',
    region: 'Европа',
    country: 'Россия',
    manufacturer: 'Lada (АвтоВАЗ)',
    modelYear: 2000,
    checkDigitValid: true,
    checkDigitExpected: '9',
    warning: null,
  },
};

describe('objects: a saved view opened from the menu', () => {
  it('fills the search box with the view’s search and asks the server for the view’s filters', async () => {
    const api = stubApi([
      meAnswer('analyst'),
      {
        path: monitoringEndpoints.items.path,
        schema: itemsResponseSchema,
        body: { items: [item], total: 1, totalIsEstimate: false },
      },
      {
        method: 'GET',
        path: savedViewEndpoints.list.path,
        schema: savedViewsResponseSchema,
        body: {
          items: [
            {
              id: '7d0f2c1e-0000-4000-8000-0000000000a1',
              list: 'items',
              name: 'Архив Лад',
              query: 'search=lada&status=archived',
              isDefault: false,
              createdAt: '2026-11-20T08:00:00.000Z',
              updatedAt: '2026-11-20T08:00:00.000Z',
            },
          ],
        },
      },
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
