// @vitest-environment happy-dom
import { memberSchema, membersResponseSchema, messageResponseSchema } from '@pledgewatch/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { userFixture } from '@/testing/fixtures';
import { renderDom } from '@/testing/render-dom';
import { stubApi } from '@/testing/render-route';
import { UsersTable } from './users-table';

const member = (over: Partial<Record<string, unknown>> = {}) => {
  const { organisation: _organisation, ...user } = userFixture('admin');
  return { ...user, active: true, status: 'active', lastLoginAt: null, ...over };
};

const stub = () =>
  stubApi([
    {
      method: 'GET',
      path: '/api/v1/users',
      schema: membersResponseSchema,
      body: { items: [member()], total: 1 },
    },
    {
      method: 'POST',
      path: '/api/v1/users',
      schema: messageResponseSchema,
      body: { message: 'Приглашение отправлено' },
      status: 202,
    },
  ]);

describe('users: inviting a member', () => {
  it('shows the Russian messages for an empty and a malformed form and sends nothing', async () => {
    const api = stub();
    const { user } = renderDom({ element: <UsersTable currentUserId="someone-else" /> });
    await screen.findByText('Иванова Анна Петровна');
    await user.click(screen.getByRole('button', { name: 'Пригласить пользователя' }));
    const dialog = await screen.findByRole('dialog', { name: 'Приглашение пользователя' });
    await user.click(within(dialog).getByRole('button', { name: 'Пригласить' }));
    expect(await within(dialog).findAllByText('Обязательное поле')).toHaveLength(2);

    await user.type(within(dialog).getByLabelText(/E-mail/), 'not-an-address');
    await user.click(within(dialog).getByRole('button', { name: 'Пригласить' }));
    expect(await within(dialog).findByText('Введите корректный адрес электронной почты')).toBeTruthy();
    expect(api.calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });

  it('posts the invitation and refetches the members list', async () => {
    const api = stub();
    const { user, queryClient } = renderDom({ element: <UsersTable currentUserId="someone-else" /> });
    await screen.findByText('Иванова Анна Петровна');
    const listReads = () =>
      api.calls.filter((call) => call.method === 'GET' && call.url.startsWith('/api/v1/users')).length;
    const readsBefore = listReads();

    await user.click(screen.getByRole('button', { name: 'Пригласить пользователя' }));
    const dialog = await screen.findByRole('dialog', { name: 'Приглашение пользователя' });
    await user.type(within(dialog).getByLabelText(/E-mail/), '  Petrov@Bank.Example ');
    await user.type(within(dialog).getByLabelText(/ФИО/), 'Петров Пётр');
    await user.click(within(dialog).getByRole('button', { name: 'Пригласить' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([
      {
        method: 'POST',
        url: '/api/v1/users',
        body: { email: 'petrov@bank.example', fullName: 'Петров Пётр', role: 'analyst' },
      },
    ]);
    // The list on screen is read again once the invitation is accepted.
    await waitFor(() => expect(listReads()).toBe(readsBefore + 1));
    expect(queryClient.getQueryState(['users', { page: 1, pageSize: 25 }])?.isInvalidated).toBe(false);
    expect(await screen.findByText('Приглашение отправлено')).toBeTruthy();
  });
});

describe('users: disabling a member', () => {
  const ID = '00000000-0000-4000-8000-0000000000a1';
  const stubWithPatch = () =>
    stubApi([
      {
        method: 'GET',
        path: '/api/v1/users',
        schema: membersResponseSchema,
        body: { items: [member()], total: 1 },
      },
      {
        method: 'PATCH',
        path: `/api/v1/users/${ID}`,
        schema: memberSchema,
        body: member({ active: false, status: 'disabled' }),
      },
    ]);

  it('asks first, then patches «active: false» and reads the members list again', async () => {
    const api = stubWithPatch();
    const { user } = renderDom({ element: <UsersTable currentUserId="someone-else" /> });
    await screen.findByText('Иванова Анна Петровна');
    const listReads = () => api.calls.filter((call) => call.method === 'GET').length;
    const readsBefore = listReads();

    await user.click(screen.getByRole('button', { name: 'Отключить' }));
    const dialog = await screen.findByRole('dialog', { name: 'Отключить пользователя?' });
    expect(api.calls.filter((call) => call.method === 'PATCH')).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Отключить' }));

    expect(await screen.findByText('Изменения сохранены')).toBeTruthy();
    expect(api.calls.filter((call) => call.method === 'PATCH')).toEqual([
      { method: 'PATCH', url: `/api/v1/users/${ID}`, body: { active: false } },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The users queries are invalidated: the list on screen is read again.
    await waitFor(() => expect(listReads()).toBe(readsBefore + 1));
  }, 120_000);

  it('never lets an admin disable themselves', async () => {
    const api = stubWithPatch();
    renderDom({ element: <UsersTable currentUserId={ID} /> });
    await screen.findByText(/Иванова Анна Петровна/);
    expect((screen.getByRole('button', { name: 'Отключить' }) as HTMLButtonElement).disabled).toBe(true);
    expect(api.calls.filter((call) => call.method === 'PATCH')).toEqual([]);
  }, 120_000);
});
