import { expect, test } from '@playwright/test';
import { DEMO_ADMIN, DEMO_ANALYST, signInThroughForm } from '../support/session.ts';

/**
 * A newcomer's first screens on a fresh start (no check run, upload or pledge made by a test first):
 * the demo's month of history (apps/server/src/demo/demo-history.ts) fills them.
 */
test('the demo comes alive: statistics with shape, events, the registry in every package status', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  await signInThroughForm(page, DEMO_ANALYST);
  await page.getByRole('link', { name: 'Статистика' }).click();
  await expect(page.getByRole('button', { name: '30 дней' })).toHaveAttribute('aria-pressed', 'true');
  const events = page.getByTestId('chart-events');
  await expect.poll(() => events.locator('path.recharts-rectangle').count()).toBeGreaterThan(0);
  // Bars on more than one day: the two runs a month and two days ago (and today's lapse event).
  const barDays = await events
    .locator('path.recharts-rectangle')
    .evaluateAll(
      (bars) => new Set(bars.map((bar) => /^M\s*([\d.]+)/.exec(bar.getAttribute('d') ?? '')?.[1])).size,
    );
  expect(barDays).toBeGreaterThanOrEqual(2);
  expect(Number(await page.getByTestId('total-events').getAttribute('data-value'))).toBeGreaterThan(100);
  expect(
    Number(await page.getByTestId('total-check-runs').getAttribute('data-value')),
  ).toBeGreaterThanOrEqual(2);
  await expect(page.getByTestId('chart-checks').locator('path.recharts-rectangle').first()).toBeAttached();

  await page.goto('/monitoring/events');
  await expect(page.getByTestId('event-row').first()).toBeVisible();

  await page.goto('/pledges/events-registry/table');
  await expect(page.getByTestId('pledge-event-row').filter({ hasText: 'ДЗ-ДЕМО' }).first()).toBeVisible();
  await page.goto('/pledges/events-registry/packages');
  const statuses = page.getByTestId('package-status');
  for (const status of ['Черновик', 'Готов к отправке', 'Отправлен', 'Зарегистрирован', 'Отклонён']) {
    await expect(statuses.filter({ hasText: new RegExp(`^${status}$`) }).first()).toBeVisible();
  }

  // The rules and their deliveries: the events rule's and the stale-source alert's.
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signInThroughForm(admin, DEMO_ADMIN);
  await admin.goto('/monitoring/notifications');
  const deliveries = admin.getByTestId('delivery-row');
  await expect(deliveries.filter({ hasText: 'ДЕМО: события по BMW' }).first()).toBeVisible();
  await expect(deliveries.filter({ hasText: 'ДЕМО: устаревшие данные МВД' }).first()).toBeVisible();
  await adminContext.close();
});
