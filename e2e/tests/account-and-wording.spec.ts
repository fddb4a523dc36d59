import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { authEndpoints, buildPath, memberEndpoints, ROUTES, userEndpoints } from '@pledgewatch/contract';
import { linkFrom, waitForMail } from '../support/mail.ts';
import { apiCall, apiToken, DEMO_ADMIN, DEMO_ANALYST, signInThroughForm } from '../support/session.ts';

/** An invited colleague, through the API: the invitation link and the address. */
async function invite(fullName: string): Promise<{ email: string; link: string }> {
  const admin = await apiToken(DEMO_ADMIN);
  const email = `e2e-acc-${Date.now()}-${Math.floor(Math.random() * 1e6)}@demo.pledgewatch.ru`;
  await apiCall(admin, 'POST', memberEndpoints.invite.path, { email, fullName, role: 'analyst' });
  return { email, link: linkFrom(await waitForMail(email, /^Приглашение в Pledgewatch/)) };
}

async function acceptByApi(link: string, password: string): Promise<void> {
  const token = new URL(link).searchParams.get('token');
  const response = await fetch(new URL(userEndpoints.resetPasswordConfirm.path, link), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, new_password: password }),
  });
  expect(response.status).toBe(200);
}

async function setTheme(context: BrowserContext, baseURL: string, theme: 'light' | 'dark'): Promise<void> {
  await context.addCookies([
    { name: 'theme', value: theme, url: baseURL },
    { name: 'serverTheme', value: theme, url: baseURL },
  ]);
}

/** WCAG contrast ratio of two CSS rgb() colours. */
function contrast(a: string, b: string): number {
  const luminance = (css: string) => {
    const [r, g, bl] = (css.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (bl ?? 0);
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
}

test('a signed-out visit to /auth/verify-email keeps the token through sign-in and verifies', async ({
  page,
  baseURL,
}) => {
  const { email, link } = await invite('Вера Проверкина');
  await acceptByApi(link, 'verify after sign in 7');
  const token = await apiToken({ email, password: 'verify after sign in 7' });
  const newEmail = email.replace('e2e-acc-', 'e2e-new-');
  await apiCall(token, 'PUT', userEndpoints.updateEmail.path, { email: newEmail });
  const verifyToken = new URL(
    linkFrom(await waitForMail(newEmail, /^Подтверждение нового e-mail/)),
  ).searchParams.get('token');

  await page.goto(`/auth/verify-email?token=${encodeURIComponent(verifyToken!)}`);
  await expect(page).toHaveURL(/\/auth\?redirectTo=/);
  const redirectTo = new URL(page.url()).searchParams.get('redirectTo');
  expect(redirectTo).toBe(`/auth/verify-email?token=${encodeURIComponent(verifyToken!)}`);

  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Пароль', { exact: true }).fill('verify after sign in 7');
  await page.getByRole('button', { name: 'Войти' }).click();
  await expect(page).toHaveURL(/\/auth\/verify-email\?token=/);
  await expect(page.getByText('Адрес электронной почты подтверждён.')).toBeVisible();
  // The new address is the login now.
  expect(
    (
      await fetch(`${baseURL}${authEndpoints.login.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'password',
          username: newEmail,
          password: 'verify after sign in 7',
        }),
      })
    ).status,
  ).toBe(200);
});

test('an invitation shows «Приглашён» until accepted, in its own words, with required-field messages', async ({
  page,
  browser,
}) => {
  const { email, link } = await invite('Инна Приглашённая');
  await signInThroughForm(page, DEMO_ADMIN);
  await page.goto('/settings?tab=users');
  const row = page.getByTestId('user-row').filter({ hasText: email });
  await expect(row.locator('[data-status]')).toHaveText('Приглашён');
  await expect(row.locator('[data-status]')).toHaveAttribute('data-status', 'invited');

  const invitee = await browser.newPage();
  await invitee.goto(link);
  await expect(invitee.getByRole('heading', { name: 'Вас пригласили в Pledgewatch' })).toBeVisible();
  await expect(invitee.getByText('Задайте пароль, чтобы войти.')).toBeVisible();
  await expect(invitee.getByText('Придумайте новый пароль для входа.')).toHaveCount(0);
  await expect(invitee).toHaveTitle('Вас пригласили в Pledgewatch — Pledgewatch');
  // Both fields empty: each says it is required (not a length rule, not a mismatch).
  await invitee.getByRole('button', { name: 'Задать пароль' }).click();
  await expect(invitee.getByText('Обязательное поле')).toHaveCount(2);
  await expect(invitee.getByText('Минимальная длина — 12 симв.')).toHaveCount(0);
  await invitee.getByLabel('Пароль', { exact: true }).fill('invited and accepted 3');
  await invitee.getByRole('button', { name: 'Задать пароль' }).click();
  await expect(invitee.getByText('Обязательное поле')).toHaveCount(1);
  await expect(invitee.getByText('Пароли не совпадают')).toHaveCount(0);
  await invitee.getByLabel('Повторите пароль').fill('invited and accepted 3');
  await invitee.getByRole('button', { name: 'Задать пароль' }).click();
  await expect(invitee).toHaveURL(/\/auth$/);
  await expect(invitee.getByText('Пароль задан. Войдите с ним, чтобы начать работу.')).toBeVisible();
  await invitee.close();

  await page.reload();
  await expect(row.locator('[data-status]')).toHaveText('Активен');
});

test('the dashboard does not say no check ran while the items carry a last check time', async ({ page }) => {
  await signInThroughForm(page, DEMO_ANALYST);
  const tile = page.getByTestId('dashboard-run');
  await expect(tile).toBeVisible();
  await expect(tile).not.toContainText('Регулярных проверок ещё не было');
  await expect(tile).toContainText(/Объекты проверены: \d{2}\.\d{2}\.\d{4}|Завершена|Запуск/);
});

test('dark theme: the statistics legends are readable on the dark card', async ({
  page,
  context,
  baseURL,
}) => {
  await setTheme(context, baseURL!, 'dark');
  await signInThroughForm(page, DEMO_ANALYST);
  await page.goto('/monitoring/statistics');
  const items = page.locator('.recharts-legend-item-text');
  await expect(items.first()).toBeVisible({ timeout: 30_000 });
  const colours = await items.evaluateAll((nodes) =>
    nodes.map((node) => {
      const text = node.querySelector('span') ?? node;
      let card: Element | null = node;
      while (card && !card.classList.contains('MuiPaper-root')) {
        card = card.parentElement;
      }
      return {
        label: text.textContent,
        color: getComputedStyle(text).color,
        background: getComputedStyle(card ?? document.body).backgroundColor,
      };
    }),
  );
  expect(colours.length).toBeGreaterThan(1);
  for (const { label, color, background } of colours) {
    expect(contrast(color, background), `${label}: ${color} on ${background}`).toBeGreaterThanOrEqual(4.5);
  }
});

test('signed out, no signed-in route asks the API anything but the sign-in check before redirecting', async ({
  browser,
}) => {
  // A fresh browser context per screen (about 25): minutes on a machine busy with other work.
  test.setTimeout(480_000);
  // The current-user call is the sign-in check itself; the build check is not data.
  const allowed = new Set<string>([authEndpoints.me.path, authEndpoints.buildInfo.path]);
  const routes = Object.values(ROUTES).filter((route) => route.layout === 'default');
  expect(routes.length).toBeGreaterThan(15);
  for (const route of routes) {
    const path = buildPath(route.path, { id: '00000000-0000-4000-8000-000000000000' });
    const context = await browser.newContext();
    const page = await context.newPage();
    const calls: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/') && !allowed.has(url.pathname)) {
        calls.push(`${request.method()} ${url.pathname}`);
      }
    });
    await page.goto(path);
    await expect(page).toHaveURL(/\/auth(\?|$)/);
    await expect(page.getByRole('button', { name: 'Войти' })).toBeVisible();
    expect(calls, path).toEqual([]);
    await context.close();
  }
});

test('wording: document number labels follow the type, «Документ» stays in sentence case, titles name the product', async ({
  page,
}) => {
  await page.goto('/auth');
  await expect(page).toHaveTitle('Вход — Pledgewatch');
  await page.goto('/reset-password');
  await expect(page).toHaveTitle('Восстановление пароля — Pledgewatch');

  await signInThroughForm(page, DEMO_ANALYST);
  await page.goto('/monitoring/one-time-check');
  const documentToggle = page.getByRole('button', { name: 'Документ', exact: true });
  await expect(documentToggle).toBeVisible();
  expect(await documentToggle.evaluate((node) => getComputedStyle(node).textTransform)).toBe('none');
  await documentToggle.click();
  await expect(page.getByLabel('Серия и номер')).toBeVisible();
  await selectDocumentType(page, 'ИНН');
  await expect(page.getByLabel('Номер ИНН')).toBeVisible();
  await expect(page.getByLabel('Серия и номер')).toHaveCount(0);
  await selectDocumentType(page, 'ОГРН');
  await expect(page.getByLabel('Номер ОГРН')).toBeVisible();

  // The same rule on the form that adds one item to monitoring.
  await page.goto('/monitoring/upload/form');
  const addDocument = page.getByRole('button', { name: 'Документ', exact: true });
  await addDocument.click();
  await selectDocumentType(page, 'ИНН');
  await expect(page.getByLabel('Номер ИНН')).toBeVisible();
});

async function selectDocumentType(page: Page, label: string): Promise<void> {
  await page.getByRole('combobox', { name: /Тип документа/ }).click();
  await page.getByRole('option', { name: label, exact: true }).click();
  await expect(page.getByRole('listbox')).toHaveCount(0);
}
