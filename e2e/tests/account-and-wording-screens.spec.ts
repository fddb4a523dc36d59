import { expect, test } from '@playwright/test';
import { memberEndpoints } from '@pledgewatch/contract';
import { DESKTOP, DOCS_SCREENSHOTS, PHONE, saveDocScreenshot } from '../support/doc-screenshots.ts';
import { linkFrom, waitForMail } from '../support/mail.ts';
import { apiCall, apiToken, DEMO_ADMIN, signInThroughForm } from '../support/session.ts';

/**
 * The screens issue #14 changed, at both sizes and in both themes, written to docs/screenshots/
 * (docs/screenshots.md shows them). Run on demand, not in the suite, since it rewrites those files:
 * DOCS_SCREENSHOTS=1 npx playwright test -c e2e/playwright.config.ts account-and-wording-screens.spec.ts
 */
test.skip(!DOCS_SCREENSHOTS, 'writes docs/screenshots; set DOCS_SCREENSHOTS=1');

const SIZES = [
  { name: 'desktop', ...DESKTOP },
  { name: 'mobile', ...PHONE },
] as const;
const THEMES = ['light', 'dark'] as const;

for (const theme of THEMES) {
  test(`issue #14 screens, ${theme} theme`, async ({ page, context, baseURL }) => {
    test.setTimeout(240_000);
    await context.addCookies([
      { name: 'theme', value: theme, url: baseURL! },
      { name: 'serverTheme', value: theme, url: baseURL! },
    ]);
    const admin = await apiToken(DEMO_ADMIN);
    const email = `screens-${theme}-${Date.now()}@demo.pledgewatch.ru`;
    await apiCall(admin, 'POST', memberEndpoints.invite.path, {
      email,
      fullName: 'Инна Приглашённая',
      role: 'analyst',
    });
    const link = linkFrom(await waitForMail(email, /^Приглашение в Pledgewatch/));

    for (const size of SIZES) {
      await page.setViewportSize({ width: size.width, height: size.height });
      const suffix = `${size.name}-${theme}`;

      await context.clearCookies({ name: 'auth_token' });
      await page.goto(link);
      await page.getByRole('button', { name: 'Задать пароль' }).click();
      await expect(page.getByText('Обязательное поле')).toHaveCount(2);
      await saveDocScreenshot(page, `invitation-${suffix}`);

      await signInThroughForm(page, DEMO_ADMIN);
      await expect(page.getByTestId('dashboard-run')).toBeVisible();
      await saveDocScreenshot(page, `dashboard-${suffix}`);

      await page.goto('/settings?tab=users');
      await expect(page.getByTestId('user-row').filter({ hasText: email })).toContainText('Приглашён');
      await page.getByTestId('user-row').filter({ hasText: email }).scrollIntoViewIfNeeded();
      await saveDocScreenshot(page, `users-${suffix}`);

      await page.goto('/monitoring/statistics');
      const legend = page.locator('.recharts-legend-item-text').first();
      await expect(legend).toBeVisible({ timeout: 30_000 });
      await page.getByTestId('chart-checks').scrollIntoViewIfNeeded();
      await saveDocScreenshot(page, `statistics-${suffix}`);

      await page.goto('/monitoring/one-time-check');
      await page.getByRole('button', { name: 'Документ', exact: true }).click();
      await page.getByRole('combobox', { name: /Тип документа/ }).click();
      await page.getByRole('option', { name: 'ИНН', exact: true }).click();
      await expect(page.getByLabel('Номер ИНН')).toBeVisible();
      await saveDocScreenshot(page, `one-time-check-inn-${suffix}`);
    }
  });
}
