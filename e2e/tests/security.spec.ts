import { expect, type Page, test } from '@playwright/test';
import { DEMO_ANALYST, signInThroughForm } from '../support/session.ts';

/** Collects CSP violations the page reports, from the first script on, plus console errors about CSP. */
async function watchCsp(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeFunction('reportCspViolation', (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportCspViolation: (text: string) => void }).reportCspViolation;
      void report(
        `${event.violatedDirective} blocked ${event.blockedURI || 'inline'} at ${event.documentURI} (${event.sourceFile}:${event.lineNumber}:${event.columnNumber})`,
      );
    });
  });
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) {
      violations.push(message.text());
    }
  });
  return violations;
}

test('the session cookie is HttpOnly, pages carry a strict CSP without violations, sign-out clears it', async ({
  page,
  context,
}) => {
  const violations = await watchCsp(page);
  const shell = await page.goto('/auth');
  const headers = (await shell?.allHeaders()) ?? {};
  const csp = headers['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  expect(headers['x-content-type-options']).toBe('nosniff');

  await signInThroughForm(page, DEMO_ANALYST);
  await expect(page.getByText('Иван Аналитиков').first()).toBeVisible();

  // The token is not readable by any script on the page.
  expect(await page.evaluate(() => document.cookie)).not.toContain('auth_token');
  const session = (await context.cookies()).find((cookie) => cookie.name === 'auth_token');
  expect(session?.httpOnly).toBe(true);
  expect(session?.sameSite).toBe('Lax');
  expect(session?.path).toBe('/');
  expect(session?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
  // Nothing else on the page keeps it either.
  const stored = await page.evaluate(() =>
    JSON.stringify({ ...window.localStorage, ...window.sessionStorage }),
  );
  expect(stored).not.toContain(session!.value);

  // The cookie alone keeps the user signed in across a reload and on other screens.
  await page.reload();
  await expect(page.getByText('Иван Аналитиков').first()).toBeVisible();
  await page.goto('/monitoring/items');
  await expect(page.getByRole('heading', { name: /Объекты/ }).first()).toBeVisible();
  await page.goto('/settings');
  await expect(page.getByText('Иван Аналитиков').first()).toBeVisible();

  // A write carried by the browser's cookie but sent from a foreign origin is refused.
  const forged = await page.request.patch('/api/v1/user/profile', {
    headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
    data: { fullName: 'Взломано' },
  });
  expect(forged.status()).toBe(403);
  expect((await forged.json()).code).toBe('CROSS_SITE_REQUEST');

  await page.getByRole('button', { name: 'Выйти' }).first().click();
  await expect(page).toHaveURL(/\/auth/);
  expect((await context.cookies()).find((cookie) => cookie.name === 'auth_token')).toBeUndefined();
  expect(violations).toEqual([]);
});

test('the API docs render under the same policy', async ({ page }) => {
  const violations = await watchCsp(page);
  const response = await page.goto('/api/docs');
  expect((await response?.allHeaders())?.['content-security-policy']).toContain("script-src 'self'");
  // The UI bundle and the whole OpenAPI document are large: give a loaded machine time.
  await expect(page.getByRole('heading', { name: /Pledgewatch API/ })).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('.opblock').first()).toBeVisible({ timeout: 30_000 });
  expect(violations).toEqual([]);
});
