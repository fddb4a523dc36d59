import { expect, test } from '@playwright/test';
import { linkFrom, waitForMail } from '../support/mail.ts';
import { apiCall, apiToken, DEMO_ADMIN, DEMO_ANALYST, signInThroughForm } from '../support/session.ts';

test('signs in with the demo account and signs out', async ({ page, context }) => {
  await signInThroughForm(page, DEMO_ANALYST);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Иван Аналитиков').first()).toBeVisible();
  const token = (await context.cookies()).find((cookie) => cookie.name === 'auth_token');
  expect(token?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);

  await page.getByRole('button', { name: 'Выйти' }).first().click();
  await expect(page).toHaveURL(/\/auth/);
  expect((await context.cookies()).find((cookie) => cookie.name === 'auth_token')).toBeUndefined();
  // The token no longer works on the server either.
  const me = await fetch(`${new URL(page.url()).origin}/api/v1/auth/me`, {
    headers: { authorization: `Bearer ${token?.value}` },
  });
  expect(me.status).toBe(401);
});

test('a wrong password shows the Russian message and stays on the form', async ({ page }) => {
  await page.goto('/auth');
  await page.getByLabel('E-mail').fill(DEMO_ANALYST.email);
  await page.getByLabel('Пароль', { exact: true }).fill('definitely wrong');
  await page.getByRole('button', { name: 'Войти' }).click();
  await expect(page.getByText('Неверный e-mail или пароль')).toBeVisible();
  await expect(page).toHaveURL(/\/auth/);
});

test('a 401 clears the token and sends the browser to /auth', async ({ page, context, baseURL }) => {
  await context.addCookies([{ name: 'auth_token', value: 'stale-token', url: baseURL! }]);
  await page.goto('/monitoring/items');
  await expect(page).toHaveURL(/\/auth/);
  expect((await context.cookies()).find((cookie) => cookie.name === 'auth_token')).toBeUndefined();
});

test('resets a forgotten password through the mail actually sent over SMTP', async ({ page }) => {
  // An invited colleague first sets a password from the invitation mail.
  const admin = await apiToken(DEMO_ADMIN);
  const email = `e2e-${Date.now()}@demo.pledgewatch.ru`;
  await apiCall(admin, 'POST', '/api/v1/users', { email, fullName: 'Ольга Проверкина', role: 'analyst' });
  const invite = await waitForMail(email, /^Приглашение в Pledgewatch/);
  await page.goto(linkFrom(invite));
  // The form states the rule, and a common password comes back refused with the server's reason.
  await expect(page.getByText(/^Не короче 12 символов/)).toBeVisible();
  const password = page.getByLabel('Пароль', { exact: true });
  await password.fill('short');
  await page.getByLabel('Повторите пароль').fill('short');
  await page.getByRole('button', { name: 'Задать пароль' }).click();
  await expect(page.getByText('Минимальная длина — 12 симв.')).toBeVisible();
  await password.fill('qwerty123456');
  await page.getByLabel('Повторите пароль').fill('qwerty123456');
  await page.getByRole('button', { name: 'Задать пароль' }).click();
  await expect(page.getByText(/^Это один из самых распространённых паролей/)).toBeVisible();
  await password.fill('first password 1');
  await page.getByLabel('Повторите пароль').fill('first password 1');
  await page.getByRole('button', { name: 'Задать пароль' }).click();
  await expect(page).toHaveURL(/\/auth/);

  // Then forgets it.
  await page.getByRole('link', { name: 'Забыли пароль?' }).click();
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Отправить ссылку' }).click();
  await expect(page.getByText(/мы отправили на него письмо/)).toBeVisible();
  const reset = await waitForMail(email, /^Восстановление пароля/);
  expect(reset.text).toContain('Мы получили запрос на восстановление пароля');
  await page.goto(linkFrom(reset));
  await page.getByLabel('Новый пароль').fill('second password 2');
  await page.getByLabel('Повторите пароль').fill('second password 2');
  await page.getByRole('button', { name: 'Сохранить пароль' }).click();
  await expect(page).toHaveURL(/\/auth/);
  // The toast library is fetched on demand before sign-in; the confirmation still shows.
  await expect(page.getByText('Пароль изменён. Войдите с новым паролем.')).toBeVisible();

  await signInThroughForm(page, { email, password: 'second password 2' });
  await expect(page.getByText('Ольга Проверкина').first()).toBeVisible();
});

test('theme cycles auto → light → dark → auto and survives a reload', async ({ page, context }) => {
  await signInThroughForm(page, DEMO_ANALYST);
  const toggle = page.locator('[data-theme-preference]').first();
  const cookie = async (name: string) => (await context.cookies()).find((c) => c.name === name)?.value;

  await expect(toggle).toHaveAttribute('data-theme-preference', 'auto');
  await toggle.click();
  await expect(toggle).toHaveAttribute('data-theme-preference', 'light');
  expect(await cookie('theme')).toBe('light');
  await toggle.click();
  await expect(toggle).toHaveAttribute('data-theme-preference', 'dark');
  expect(await cookie('theme')).toBe('dark');
  expect(await cookie('serverTheme')).toBe('dark');

  // The server paints the first frame dark from the cookie, and the app keeps the choice.
  const response = await page.reload();
  expect(await response?.text()).toContain('data-theme="dark"');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(page.locator('[data-theme-preference]').first()).toHaveAttribute(
    'data-theme-preference',
    'dark',
  );

  await page.locator('[data-theme-preference]').first().click();
  await expect(page.locator('[data-theme-preference]').first()).toHaveAttribute(
    'data-theme-preference',
    'auto',
  );
  expect(await cookie('theme')).toBe('auto');
});

test('an unknown path shows the not-found page with status 404', async ({ page }) => {
  await signInThroughForm(page, DEMO_ANALYST);
  const response = await page.goto('/no/such/page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  await expect(page.getByText('Page not found: /no/such/page')).toBeVisible();
  await expect(page).toHaveTitle(/Page Not Found/);
});

test('a new build on the server reloads an open tab, but the first load does not', async ({ page }) => {
  await page.clock.install();
  await signInThroughForm(page, DEMO_ANALYST);
  const stored = () => page.evaluate(() => window.localStorage.getItem('pledgewatch.buildId'));
  await expect.poll(stored).not.toBeNull();
  const firstBuild = await stored();

  let loads = 0;
  page.on('load', () => loads++);
  await page.route('**/api/v1/build/info', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify('e2e-next-build') }),
  );
  await page.clock.fastForward(20_000);
  await expect.poll(() => loads).toBeGreaterThanOrEqual(1);
  await expect.poll(stored).toBe('e2e-next-build');
  expect(firstBuild).not.toBe('e2e-next-build');
});
