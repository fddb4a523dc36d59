import { expect, type Page } from '@playwright/test';
import { E2E_APP_URL } from './stack.ts';

export const DEMO_ADMIN = { email: 'admin@demo.pledgewatch.ru', password: 'demo-admin-2026' };
export const DEMO_ANALYST = { email: 'analyst@demo.pledgewatch.ru', password: 'demo-analyst-2026' };

/** Signs in through the real form and waits for the app to leave /auth. */
export async function signInThroughForm(
  page: Page,
  account: { email: string; password: string },
): Promise<void> {
  await page.goto('/auth');
  await page.getByLabel('E-mail').fill(account.email);
  await page.getByLabel('Пароль', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Войти' }).click();
  await expect(page).not.toHaveURL(/\/auth/);
}

/** A bearer token straight from the API, for arranging data without the UI. */
export async function apiToken(account: { email: string; password: string }): Promise<string> {
  const response = await fetch(`${E2E_APP_URL}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'password',
      username: account.email,
      password: account.password,
    }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

export async function apiCall<T>(token: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${E2E_APP_URL}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) {
    throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  }
  return (await response.json()) as T;
}
