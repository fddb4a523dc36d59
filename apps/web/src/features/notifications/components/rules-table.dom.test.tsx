// @vitest-environment happy-dom
import {
  additionalMethodsResponseSchema,
  notificationRuleSchema,
  notificationRulesResponseSchema,
} from '@pledgewatch/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderDom } from '@/testing/render-dom';
import { stubApi } from '@/testing/render-route';
import { emptyRuleForm, formToBody } from '../rule-form';
import { RulesTable } from './rules-table';

const RULES = '/api/v1/monitoring/notifications/settings';

/** What the form sends for a new e-mail rule with only a name and an address: the defaults, trimmed. */
const body = {
  ...formToBody(emptyRuleForm()),
  name: 'Залоги по Lada',
  recipients: ['risk@bank.example'],
};
const rule = {
  ...body,
  id: '7d0f2c1e-0000-4000-8000-0000000000c1',
  lastDigestOn: null,
  createdAt: '2026-11-20T08:00:00.000Z',
  updatedAt: '2026-11-20T08:00:00.000Z',
};

const stub = () =>
  stubApi([
    { method: 'GET', path: RULES, schema: notificationRulesResponseSchema, body: { items: [], total: 0 } },
    { method: 'POST', path: RULES, schema: notificationRuleSchema, body: rule, status: 201 },
    {
      path: '/api/v1/monitoring/notifications/methods-additional',
      schema: additionalMethodsResponseSchema,
      body: { items: [] },
    },
  ]);

const openForm = async (user: ReturnType<typeof renderDom>['user']) => {
  await user.click(await screen.findByRole('button', { name: 'Новое правило' }));
  return screen.findByRole('dialog', { name: 'Новое правило уведомлений' });
};

describe('notifications: creating a rule', () => {
  it('shows the Russian messages for a missing name and a malformed address and sends nothing', async () => {
    const api = stub();
    const { user } = renderDom({ element: <RulesTable canManage /> });
    const dialog = await openForm(user);
    await user.type(within(dialog).getByLabelText(/E-mail получателя 1/), 'not-an-address');
    await user.click(within(dialog).getByRole('button', { name: 'Создать правило' }));

    expect(await within(dialog).findByText('Обязательное поле')).toBeTruthy();
    expect(within(dialog).getByText('Введите корректный адрес электронной почты')).toBeTruthy();
    expect(api.calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });

  it('posts the rule and reads the rules list again', async () => {
    const api = stub();
    const { user } = renderDom({ element: <RulesTable canManage /> });
    const dialog = await openForm(user);
    const listReads = () => api.calls.filter((call) => call.method === 'GET' && call.url === RULES).length;
    await waitFor(() => expect(listReads()).toBe(1));

    await user.type(within(dialog).getByLabelText(/Название правила/), '  Залоги по Lada ');
    await user.type(within(dialog).getByLabelText(/E-mail получателя 1/), ' risk@bank.example');
    await user.click(within(dialog).getByRole('button', { name: 'Создать правило' }));

    expect(await screen.findByText('Правило создано')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([
      {
        method: 'POST',
        url: RULES,
        body,
      },
    ]);
    // The rules are invalidated: the list on screen is read again.
    await waitFor(() => expect(listReads()).toBe(2));
  });
});
