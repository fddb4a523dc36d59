import {
  apiKeyEndpoints,
  apiKeysResponseSchema,
  profileResponseSchema,
  type Role,
  userEndpoints,
} from '@pledgewatch/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { paths } from '@/config/paths';
import { apiKeysQueryOptions } from '@/features/api-keys/api/get-api-keys';
import { profileQueryOptions } from '@/features/settings/api/get-profile';
import { meQueryOptions } from '@/lib/auth';
import { meAnswer, userFixture } from '@/testing/fixtures';
import { renderRoute, stubApi, textsOf, visibleText } from '@/testing/render-route';
import SettingsRoute from './settings';

afterEach(() => vi.unstubAllGlobals());

const render = async (role: Role, tab?: string) => {
  stubApi([
    meAnswer(role),
    {
      path: userEndpoints.profile.path,
      schema: profileResponseSchema,
      body: {
        user: userFixture(role),
        pendingEmail: 'new@bank.example',
        sessions: [
          {
            id: 's1',
            createdAt: '2026-03-01T08:00:00.000Z',
            lastUsedAt: '2026-03-02T08:00:00.000Z',
            expiresAt: '2026-04-01T08:00:00.000Z',
            userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0',
            ip: '203.0.113.7',
            current: true,
          },
        ],
      },
    },
  ]);
  const url = `${paths.settings.getHref()}${tab ? `?tab=${tab}` : ''}`;
  return renderRoute({
    path: paths.settings.path,
    url,
    element: <SettingsRoute />,
    prefetch: (queryClient) =>
      Promise.all([
        queryClient.prefetchQuery(meQueryOptions()),
        queryClient.prefetchQuery(profileQueryOptions()),
      ]),
  });
};

describe('settings route', () => {
  it('shows the profile tab with the data the API answers', async () => {
    const html = await render('analyst');
    expect(textsOf(html, 'h1')).toEqual(['Настройки']);
    expect(textsOf(html, 'tab')).toEqual(['Профиль', 'Пароль', 'Оформление', 'Сеансы']);
    const text = visibleText(html);
    expect(text).toContain('Текущий адрес : analyst@bank.example Подтверждён');
    expect(text).toContain('Ожидает подтверждения: new@bank.example.');
  });

  it('gives an admin the users and audit tabs', async () => {
    const html = await render('admin');
    expect(textsOf(html, 'tab')).toEqual([
      'Профиль',
      'Пароль',
      'Оформление',
      'Сеансы',
      'Пользователи',
      'Ключи API',
      'Журнал действий',
    ]);
  });

  it('lists the organisation’s API keys for an admin, never their secrets', async () => {
    stubApi([
      meAnswer('admin'),
      {
        path: apiKeyEndpoints.list.path,
        schema: apiKeysResponseSchema,
        body: {
          items: [
            {
              id: '7d0f2c1e-0000-4000-8000-0000000000a1',
              name: 'АБС: выдача кредитов',
              role: 'analyst',
              prefix: 'pwk_Ab12Cd',
              rateLimitPerMinute: 600,
              createdAt: '2026-11-01T08:00:00.000Z',
              createdBy: 'Админ',
              expiresAt: null,
              lastUsedAt: '2026-11-25T09:30:00.000Z',
              revokedAt: null,
              status: 'active',
            },
          ],
        },
      },
    ]);
    const html = await renderRoute({
      path: paths.settings.path,
      url: `${paths.settings.getHref()}?tab=apiKeys`,
      element: <SettingsRoute />,
      prefetch: (queryClient) =>
        Promise.all([
          queryClient.prefetchQuery(meQueryOptions()),
          queryClient.prefetchQuery(apiKeysQueryOptions()),
        ]),
    });
    const text = visibleText(html);
    expect(text).toContain('АБС: выдача кредитов');
    expect(text).toContain('Аналитик pwk_Ab12Cd');
    expect(html).not.toContain('secret');
    expect(text).toContain('25.11.2026');
    expect(text).toContain('бессрочно');
    expect(text).toContain('Отозвать');
  });

  it('opens the tab named in the URL, and falls back to the profile for one the role lacks', async () => {
    expect(visibleText(await render('analyst', 'sessions'))).toContain('203.0.113.7');
    const text = visibleText(await render('analyst', 'users'));
    expect(text).toContain('Ожидает подтверждения: new@bank.example.');
    expect(text).not.toContain('Пользователи');
  });
});
