// @vitest-environment happy-dom
import { uploadsResponseSchema } from '@pledgewatch/contract';
import { uploadEndpoints } from '@pledgewatch/contract/endpoints/uploads';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { meAnswer, UPLOAD_ID, uploadDetailFixture } from '@/testing/fixtures';
import { renderDom } from '@/testing/render-dom';
import { stubApi } from '@/testing/render-route';
import UploadsHistoryPage from './uploads-history-page';

const stub = () =>
  stubApi([
    meAnswer('analyst'),
    {
      method: 'GET',
      path: uploadEndpoints.list.path,
      schema: uploadsResponseSchema,
      // Waiting for the user, so the list does not poll.
      body: { items: [uploadDetailFixture('validated')], total: 1 },
    },
  ]);

/** The query of each history read, as key=value pairs. */
const listQueries = (calls: { method: string; url: string }[]) =>
  calls
    .filter((call) => call.method === 'GET' && call.url.split('?')[0] === uploadEndpoints.list.path)
    .map((call) => Object.fromEntries(new URL(call.url, 'http://localhost').searchParams));

describe('uploads history: filters and rows', () => {
  it('sends the chosen kind and status in the history request', async () => {
    const api = stub();
    const { user } = renderDom({ element: <UploadsHistoryPage />, path: '*', url: '/uploads' });
    await screen.findByRole('link', { name: 'bank-list.csv' });
    expect(listQueries(api.calls)).toEqual([{ page: '1', pageSize: '25' }]);

    await user.click(screen.getByRole('combobox', { name: 'Вид' }));
    await user.click(await screen.findByRole('option', { name: 'События залога' }));
    await waitFor(() =>
      expect(listQueries(api.calls).at(-1)).toEqual({ page: '1', pageSize: '25', kind: 'pledge_events' }),
    );

    await user.click(screen.getByRole('combobox', { name: 'Статус' }));
    await user.click(await screen.findByRole('option', { name: 'Проверен, ждёт подтверждения' }));
    await waitFor(() =>
      expect(listQueries(api.calls).at(-1)).toEqual({
        page: '1',
        pageSize: '25',
        kind: 'pledge_events',
        status: 'validated',
      }),
    );
  });

  it('links a row to its own upload screen by id, where it is confirmed or cancelled', async () => {
    stub();
    renderDom({ element: <UploadsHistoryPage />, path: '*', url: '/uploads' });
    const link = await screen.findByRole('link', { name: 'bank-list.csv' });
    const href = new URL(link.getAttribute('href') ?? '', 'http://localhost');
    expect(href.searchParams.get('upload')).toBe(UPLOAD_ID);
    expect(href.pathname).toBe('/monitoring/upload/table');
  });
});
