import { expect, type Page, test } from '@playwright/test';
import { DESKTOP, DOCS_SCREENSHOTS, PHONE, saveDocScreenshot } from '../support/doc-screenshots.ts';
import { ensureEvents } from '../support/events.ts';
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
      // Two shared cores: the first screens of a fresh stack load slowly.
      test.setTimeout(180_000);
      const token = await apiToken(DEMO_ANALYST);
      const vin = newVin();
      const label = `Поиск e2e ${size}`;
      await apiCall(token, 'POST', '/api/v1/monitoring/regular-check/form-vin', { rows: [{ vin, label }] });
      await signInThroughForm(page, DEMO_ANALYST);
      await page.goto('/news');

      const box = page.getByRole('combobox', { name: /Поиск по объектам/ });
      const opener = page.getByRole('button', { name: 'Поиск' }).filter({ visible: true });
      await expect(opener).toBeVisible({ timeout: 60_000 });
      if (size === 'phone') {
        await opener.click();
        await expect(box).toBeFocused();
      } else {
        // A «/» pressed while the screen is still starting up reaches no key handler: pressed again.
        await expect(async () => {
          await page.keyboard.press('/');
          await expect(box).toBeFocused({ timeout: 2_000 });
        }).toPass({ timeout: 60_000 });
      }
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
      await expect(page.getByTestId('item-details')).toContainText(vin, { timeout: 60_000 });
      await expect(page.getByRole('combobox', { name: /Поиск по объектам/ })).toHaveCount(0);
    });

    test('events: everything the filter matches is marked read after a confirmation with the count', async ({
      page,
    }) => {
      test.setTimeout(240_000);
      await ensureEvents();
      const token = await apiToken(DEMO_ANALYST);
      type Page_ = { items: { source: string }[]; total: number };
      const some = await apiCall<Page_>(token, 'GET', '/api/v1/monitoring/events/items?pageSize=1');
      const source = some.items[0]!.source;
      // Some unread events of one source, whatever earlier tests did with them.
      await apiCall(token, 'POST', '/api/v1/monitoring/events/read-by-filter', {
        filter: { source: [source] },
        read: false,
      });
      const unread = await apiCall<Page_>(
        token,
        'GET',
        `/api/v1/monitoring/events/items?pageSize=1&read=false&source=${source}`,
      );
      expect(unread.total).toBeGreaterThan(0);
      const others = await apiCall<Page_>(
        token,
        'GET',
        '/api/v1/monitoring/events/items?pageSize=1&read=false',
      );

      await signInThroughForm(page, DEMO_ANALYST);
      await page.goto(`/monitoring/events?read=false&source=${source}`);
      await expect(page.getByTestId('event-row').first()).toBeVisible({ timeout: 60_000 });
      await expectNoSidewaysScroll(page);
      await page.getByRole('button', { name: 'Прочитать все по фильтру' }).click();
      const dialog = page.getByRole('dialog', { name: 'Прочитать все по фильтру' });
      await expect(dialog).toContainText(
        `Отметить прочитанными ${unread.total.toLocaleString('ru-RU')} непрочитанных событий`,
      );
      if (DOCS_SCREENSHOTS) {
        await saveDocScreenshot(page, `events-bulk-read-${size}`);
      }
      await dialog.getByRole('button', { name: 'Отметить прочитанными' }).click();
      await expect(page.getByText('Событий по этим условиям не найдено.')).toBeVisible();
      // Only the filter's events changed.
      const after = await apiCall<Page_>(
        token,
        'GET',
        '/api/v1/monitoring/events/items?pageSize=1&read=false',
      );
      expect(after.total).toBe(others.total - unread.total);
      await expect(page.getByRole('link', { name: 'Скачать XLSX' })).toHaveAttribute(
        'href',
        new RegExp(`kind=events.*source=${source}`),
      );
    });
  });
}
