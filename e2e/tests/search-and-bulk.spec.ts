import { expect, type Page, test } from '@playwright/test';
import { DESKTOP, DOCS_SCREENSHOTS, PHONE, saveDocScreenshot } from '../support/doc-screenshots.ts';
import { newVin } from '../support/identifiers.ts';
import { apiCall, apiToken, DEMO_ANALYST, signInThroughForm } from '../support/session.ts';

/** Issue #24: the header's one search box, and work on many events at once, on a desk and a phone. */

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({
    scroll: document.scrollingElement?.scrollWidth ?? 0,
    inner: window.innerWidth,
  }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
}

for (const [size, viewport] of [
  ['desk', DESKTOP],
  ['phone', PHONE],
] as const) {
  test.describe(`on a ${size} (${viewport.width}×${viewport.height})`, () => {
    test.use({ viewport });

    test('«/» opens the search; a VIN part finds the item, Enter opens its card', async ({ page }) => {
      const token = await apiToken(DEMO_ANALYST);
      const vin = newVin();
      const label = `Поиск e2e ${size}`;
      await apiCall(token, 'POST', '/api/v1/monitoring/regular-check/form-vin', { rows: [{ vin, label }] });
      await signInThroughForm(page, DEMO_ANALYST);
      await page.goto('/news');

      if (size === 'phone') {
        await page.getByRole('button', { name: 'Поиск' }).filter({ visible: true }).click();
      } else {
        await page.keyboard.press('/');
      }
      const box = page.getByRole('combobox', { name: /Поиск по объектам/ });
      await expect(box).toBeFocused();
      await box.fill(vin.slice(-9).toLowerCase());
      const items = page.getByRole('group', { name: 'Объекты мониторинга' });
      const hit = items.getByRole('option', { name: new RegExp(vin) });
      await expect(hit).toBeVisible();
      await expect(hit).toHaveAttribute('aria-selected', 'true');
      await expect(items.getByTestId('search-group-count')).toHaveText('1');
      await expectNoSidewaysScroll(page);
      if (DOCS_SCREENSHOTS) {
        await saveDocScreenshot(page, `search-${size}`);
      }
      await box.press('Enter');
      await expect(page).toHaveURL(/\/monitoring\/items\?entity=vin&status=all&item=/);
      await expect(page.getByTestId('item-details')).toContainText(vin);
      await expect(page.getByRole('combobox', { name: /Поиск по объектам/ })).toHaveCount(0);
    });
  });
}
