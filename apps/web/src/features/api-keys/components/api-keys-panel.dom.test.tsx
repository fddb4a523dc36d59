// @vitest-environment happy-dom
import {
  apiKeySchema,
  apiKeysResponseSchema,
  createdApiKeySchema,
  errorResponseSchema,
} from '@pledgewatch/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderDom } from '@/testing/render-dom';
import { type StubAnswer, stubApi } from '@/testing/render-route';
import { ApiKeysPanel } from './api-keys-panel';

const PATH = '/api/v1/api-keys';
const ID = '00000000-0000-4000-8000-0000000000c1';
const key = {
  id: ID,
  name: 'АБС: выдача кредитов',
  role: 'analyst',
  prefix: 'pwk_ab12',
  rateLimitPerMinute: 600,
  createdAt: '2026-11-01T09:00:00.000Z',
  createdBy: 'Иванова Анна Петровна',
  expiresAt: null,
  lastUsedAt: null,
  revokedAt: null,
  status: 'active',
};
const SECRET = 'pwk_ab12_secret-shown-once';

const listAnswer: StubAnswer = {
  method: 'GET',
  path: PATH,
  schema: apiKeysResponseSchema,
  body: { items: [key] },
};
const stub = (createAnswer: StubAnswer) =>
  stubApi([
    listAnswer,
    createAnswer,
    {
      method: 'DELETE',
      path: `${PATH}/${ID}`,
      schema: apiKeySchema,
      body: { ...key, status: 'revoked', revokedAt: '2026-11-27T10:00:00.000Z' },
    },
  ]);
const created: StubAnswer = {
  method: 'POST',
  path: PATH,
  schema: createdApiKeySchema,
  body: { ...key, id: '00000000-0000-4000-8000-0000000000c2', name: 'Конвейер', secret: SECRET },
  status: 201,
};

describe('api keys: creating a key', () => {
  it('requires a name in Russian and sends nothing', async () => {
    const api = stub(created);
    const { user } = renderDom({ element: <ApiKeysPanel /> });
    await screen.findByText('АБС: выдача кредитов');
    await user.click(screen.getByRole('button', { name: 'Создать ключ' }));
    const dialog = await screen.findByRole('dialog', { name: 'Новый ключ API' });
    await user.type(within(dialog).getByLabelText('Название'), '   ');
    await user.click(within(dialog).getByRole('button', { name: 'Создать' }));
    expect(await within(dialog).findByText('Обязательное поле')).toBeTruthy();
    expect(api.calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });

  it('posts the key, shows its secret once and reads the list again', async () => {
    const api = stub(created);
    const { user } = renderDom({ element: <ApiKeysPanel /> });
    await screen.findByText('АБС: выдача кредитов');
    const listReads = () => api.calls.filter((call) => call.method === 'GET').length;
    const readsBefore = listReads();

    await user.click(screen.getByRole('button', { name: 'Создать ключ' }));
    const dialog = await screen.findByRole('dialog', { name: 'Новый ключ API' });
    await user.type(within(dialog).getByLabelText('Название'), ' Конвейер ');
    await user.type(within(dialog).getByLabelText('Запросов в минуту'), '120');
    await user.click(within(dialog).getByRole('button', { name: 'Создать' }));

    const secretDialog = await screen.findByRole('dialog', { name: 'Ключ создан' });
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([
      {
        method: 'POST',
        url: PATH,
        body: { name: 'Конвейер', role: 'analyst', expiresOn: null, rateLimitPerMinute: 120 },
      },
    ]);
    expect((within(secretDialog).getByLabelText('Конвейер') as HTMLTextAreaElement).value).toBe(SECRET);
    expect(within(secretDialog).getByText(/показывается один раз/)).toBeTruthy();
    await waitFor(() => expect(listReads()).toBe(readsBefore + 1));

    // Once closed, the secret is gone: opening the form again shows an empty form, not the key.
    await user.click(within(secretDialog).getByRole('button', { name: 'Готово' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Создать ключ' }));
    const again = await screen.findByRole('dialog', { name: 'Новый ключ API' });
    expect((within(again).getByLabelText('Название') as HTMLInputElement).value).toBe('');
    expect(screen.queryByText(SECRET)).toBeNull();
    expect(screen.queryByDisplayValue(SECRET)).toBeNull();
  });

  it('shows the server refusal in Russian on the field and keeps the dialog open', async () => {
    const api = stub({
      method: 'POST',
      path: PATH,
      schema: errorResponseSchema,
      body: {
        statusCode: 422,
        code: 'VALIDATION_ERROR',
        message: 'Проверьте поля',
        fieldErrors: [{ field: 'name', message: 'Ключ с таким названием уже есть' }],
      },
      status: 422,
    });
    const { user } = renderDom({ element: <ApiKeysPanel /> });
    await screen.findByText('АБС: выдача кредитов');
    await user.click(screen.getByRole('button', { name: 'Создать ключ' }));
    const dialog = await screen.findByRole('dialog', { name: 'Новый ключ API' });
    await user.type(within(dialog).getByLabelText('Название'), 'АБС: выдача кредитов');
    await user.click(within(dialog).getByRole('button', { name: 'Создать' }));

    expect(await within(dialog).findByText('Ключ с таким названием уже есть')).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Ключ создан' })).toBeNull();
    expect(api.calls.filter((call) => call.method === 'POST')).toHaveLength(1);
  });
});

describe('api keys: revoking a key', () => {
  it('asks first, then deletes the key, says so and reads the list again', async () => {
    const api = stub(created);
    const { user } = renderDom({ element: <ApiKeysPanel /> });
    await screen.findByText('АБС: выдача кредитов');
    const listReads = () => api.calls.filter((call) => call.method === 'GET').length;
    const readsBefore = listReads();

    await user.click(screen.getByRole('button', { name: 'Отозвать' }));
    const dialog = await screen.findByRole('dialog', { name: 'Отозвать ключ?' });
    expect(within(dialog).getByText(/Ключ «АБС: выдача кредитов» перестанет действовать сразу/)).toBeTruthy();
    expect(api.calls.filter((call) => call.method === 'DELETE')).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Отозвать' }));

    expect(await screen.findByText('Ключ отозван')).toBeTruthy();
    expect(api.calls.filter((call) => call.method === 'DELETE')).toEqual([
      { method: 'DELETE', url: `${PATH}/${ID}`, body: {} },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(listReads()).toBe(readsBefore + 1));
  });

  it('cancelling the question sends nothing', async () => {
    const api = stub(created);
    const { user } = renderDom({ element: <ApiKeysPanel /> });
    await screen.findByText('АБС: выдача кредитов');
    await user.click(screen.getByRole('button', { name: 'Отозвать' }));
    const dialog = await screen.findByRole('dialog', { name: 'Отозвать ключ?' });
    await user.click(within(dialog).getByRole('button', { name: 'Отмена' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });
});
