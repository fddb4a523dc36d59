// @vitest-environment happy-dom
import {
  errorResponseSchema,
  newsItemSchema,
  newsPageSchema,
  newsUnreadCountResponseSchema,
} from '@pledgewatch/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { meAnswer, userFixture } from '@/testing/fixtures';
import { renderDom } from '@/testing/render-dom';
import { type StubAnswer, stubApi } from '@/testing/render-route';
import NewsPage from './news-page';

const PATH = '/api/v1/news';
const item = {
  id: '00000000-0000-4000-8000-0000000000e1',
  title: 'Новая проверка по ФССП',
  body: 'Теперь проверяем **исполнительные производства**.',
  pinned: false,
  draft: false,
  publishedAt: '2026-11-20T09:00:00.000Z',
  createdAt: '2026-11-20T09:00:00.000Z',
  updatedAt: '2026-11-20T09:00:00.000Z',
  authorName: 'Сотрудник платформы',
  // Read already, so the page does not mark anything read on its own.
  read: true,
};

const stub = (createAnswer: StubAnswer) =>
  stubApi([
    // Only platform staff write news.
    { ...meAnswer('admin'), body: { user: { ...userFixture('admin'), isStaff: true } } },
    {
      method: 'GET',
      path: PATH,
      schema: newsPageSchema,
      body: { items: [item], total: 1, unreadCount: 0 },
    },
    {
      method: 'GET',
      path: `${PATH}/unread-count`,
      schema: newsUnreadCountResponseSchema,
      body: { count: 0 },
    },
    createAnswer,
  ]);
const created: StubAnswer = {
  method: 'POST',
  path: PATH,
  schema: newsItemSchema,
  body: { ...item, id: '00000000-0000-4000-8000-0000000000e2', title: 'Плановые работы', pinned: true },
  status: 201,
};

const openEditor = async () => {
  const rendered = renderDom({ element: <NewsPage /> });
  await screen.findByText('Новая проверка по ФССП');
  await rendered.user.click(await screen.findByRole('button', { name: 'Написать новость' }));
  const dialog = await screen.findByRole('dialog', { name: 'Новая новость' });
  return { ...rendered, dialog };
};

describe('news: writing a news item', () => {
  it('requires a title and a text in Russian and sends nothing', async () => {
    const api = stub(created);
    const { user, dialog } = await openEditor();
    await user.type(within(dialog).getByRole('textbox', { name: /Текст/ }), '   ');
    await user.click(within(dialog).getByRole('button', { name: 'Опубликовать' }));
    expect(await within(dialog).findAllByText('Обязательное поле')).toHaveLength(2);
    expect(api.calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });

  it('posts the item, says it is published and reads the list and the unread count again', async () => {
    const api = stub(created);
    const { user, dialog } = await openEditor();
    const reads = (path: string) =>
      api.calls.filter((call) => call.method === 'GET' && call.url.split('?')[0] === path).length;
    const listBefore = reads(PATH);
    const countBefore = reads(`${PATH}/unread-count`);

    await user.type(within(dialog).getByRole('textbox', { name: /Заголовок/ }), 'Плановые работы');
    await user.type(within(dialog).getByRole('textbox', { name: /Текст/ }), 'В субботу с 2:00 до 4:00.');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Закрепить вверху списка' }));
    await user.click(within(dialog).getByRole('button', { name: 'Опубликовать' }));

    expect(await screen.findByText('Новость опубликована')).toBeTruthy();
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([
      {
        method: 'POST',
        url: PATH,
        body: { title: 'Плановые работы', body: 'В субботу с 2:00 до 4:00.', pinned: true, draft: false },
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(reads(PATH)).toBe(listBefore + 1));
    await waitFor(() => expect(reads(`${PATH}/unread-count`)).toBe(countBefore + 1));
  });

  it('shows the server refusal in Russian and keeps the dialog open', async () => {
    const api = stub({
      method: 'POST',
      path: PATH,
      schema: errorResponseSchema,
      body: { statusCode: 403, code: 'FORBIDDEN', message: 'Новости пишут только сотрудники платформы' },
      status: 403,
    });
    const { user, dialog } = await openEditor();
    await user.type(within(dialog).getByRole('textbox', { name: /Заголовок/ }), 'Плановые работы');
    await user.type(within(dialog).getByRole('textbox', { name: /Текст/ }), 'В субботу.');
    await user.click(within(dialog).getByRole('button', { name: 'Опубликовать' }));

    expect(await within(dialog).findByText('Новости пишут только сотрудники платформы')).toBeTruthy();
    expect(screen.queryByText('Новость опубликована')).toBeNull();
    expect(api.calls.filter((call) => call.method === 'POST')).toHaveLength(1);
  });
});
