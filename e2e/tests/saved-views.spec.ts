import { expect, type Page, test } from '@playwright/test';
import { DESKTOP, PHONE } from '../support/doc-screenshots.ts';
import { apiCall, apiToken, DEMO_ANALYST, signInThroughForm } from '../support/session.ts';

/** Issue #24 item 13: saved views (named filters and sort of a list), on a desk and a phone. */

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({
    scroll: document.scrollingElement?.scrollWidth ?? 0,
    inner: window.innerWidth,
  }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
}

/** The analyst's own views of a list are taken out again, so runs and sizes do not add up. */
async function removeViews(list: string, prefix: string): Promise<void> {
  const token = await apiToken(DEMO_ANALYST);
  const { items } = await apiCall<{ items: { id: string; name: string }[] }>(
    token,
    'GET',
    `/api/v1/saved-views?list=${list}`,
  );
  for (const view of items.filter((item) => item.name.startsWith(prefix))) {
    // Fastify refuses a JSON content type with no body: the web client sends {} too.
    await apiCall(token, 'DELETE', `/api/v1/saved-views/${view.id}`, {});
  }
}

for (const [size, viewport, severity, severityLabel] of [
  ['desk', DESKTOP, 'critical', 'Критическая'],
  ['phone', PHONE, 'high', 'Высокая'],
] as const) {
  test.describe(`on a ${size} (${viewport.width}×${viewport.height})`, () => {
    test.use({ viewport });

    test('a view saved on events with a filter opens the list filtered again after another page', async ({
      page,
    }) => {
      // Two shared cores: the first screens of a fresh stack load slowly.
      test.setTimeout(180_000);
      const name = `Важные e2e ${size} ${Date.now()}`;
      try {
        await signInThroughForm(page, DEMO_ANALYST);
        await page.goto(`/monitoring/events?severity=${severity}&page=2`);
        // «Виды», or «Вид: …» should a view with these filters exist already.
        const viewsButton = page.getByRole('button', { name: /^Вид(ы$|: )/ });
        await expect(viewsButton).toBeVisible({ timeout: 60_000 });
        await viewsButton.click();
        await page.getByRole('menuitem', { name: 'Сохранить текущий вид…' }).click();
        const dialog = page.getByRole('dialog', { name: 'Сохранить вид' });
        await dialog.getByLabel('Название').fill(name);
        await expectNoSidewaysScroll(page);
        await dialog.getByRole('button', { name: 'Сохранить' }).click();
        await expect(page.getByText(`Вид «${name}» сохранён`)).toBeVisible();
        await expect(page.getByRole('button', { name: `Вид: ${name}` })).toBeVisible();

        await page.goto('/news');
        await page.goto('/monitoring/events');
        await expect(page.getByRole('button', { name: 'Виды', exact: true })).toBeVisible({
          timeout: 60_000,
        });
        await page.getByRole('button', { name: 'Виды', exact: true }).click();
        await page.getByRole('menu', { name: 'Сохранённые виды' }).getByText(name).click();
        // The view holds the filter, not the page it was saved on.
        await expect(page).toHaveURL(new RegExp(`/monitoring/events\\?severity=${severity}$`));
        await expect(page.getByRole('button', { name: `Вид: ${name}` })).toBeVisible();
        if (size === 'phone') {
          await expect(page.getByRole('button', { name: 'Фильтры: 1' })).toBeVisible();
        } else {
          await expect(page.getByRole('combobox', { name: /^Важность/ })).toContainText(severityLabel);
        }
        await expectNoSidewaysScroll(page);
      } finally {
        await removeViews('events', name);
      }
    });
  });
}

test.describe('the registry (desk)', () => {
  test.use({ viewport: DESKTOP });

  test('keeps its filters in the URL: a reload shows the same filtered list', async ({ page }) => {
    test.setTimeout(180_000);
    await signInThroughForm(page, DEMO_ANALYST);
    await page.goto('/pledges/events-registry/table');
    const vin = page.getByLabel('VIN', { exact: true });
    await expect(vin).toBeVisible({ timeout: 60_000 });
    await vin.fill('XTA');
    // No wait for the URL in between: the switch is clicked while the VIN's navigation may still be
    // loading or rendering, and the click's update must build on it (#24, lib/use-url-state.ts).
    await page.getByLabel('Истекает срок').click();
    await expect(page.getByLabel('Истекает срок')).toBeChecked();
    await expect(page).toHaveURL(/[?&]vin=XTA(&|$)/);
    await expect(page).toHaveURL(/[?&]lapsing=true(&|$)/);
    await page.reload();
    await expect(page.getByLabel('VIN', { exact: true })).toHaveValue('XTA', { timeout: 60_000 });
    await expect(page.getByLabel('Истекает срок')).toBeChecked();
  });
});
