import { expect, type Page, test } from '@playwright/test';
import { endpointPath, pledgeEndpoints } from '@pledgewatch/contract';
import { typeDate } from '../support/date-field.ts';
import { DESKTOP, DOCS_SCREENSHOTS, PHONE, saveDocScreenshot } from '../support/doc-screenshots.ts';
import { ensureEvents } from '../support/events.ts';
import { enterPledgeEvent } from '../support/pledges.ts';
import { apiCall, apiToken, DEMO_ADMIN, DEMO_ANALYST, signInThroughForm } from '../support/session.ts';

/** A notification entered by the analyst and a package of it approved by the admin: «Готов к отправке». */
async function readyPackage(surname: string): Promise<{ packageName: string; packageId: string }> {
  const analyst = await apiToken(DEMO_ANALYST);
  const admin = await apiToken(DEMO_ADMIN);
  const eventId = await enterPledgeEvent(surname);
  const created = await apiCall<{ id: string; name: string }>(
    analyst,
    'POST',
    pledgeEndpoints.createPackage.path,
    {
      name: `Пакет ${surname}`,
      eventIds: [eventId],
    },
  );
  await apiCall(admin, 'POST', endpointPath(pledgeEndpoints.transitionPackage.path, { id: created.id }), {
    action: 'approve',
  });
  return { packageName: created.name, packageId: created.id };
}

/** The same, then sent and rejected by the registry with a reason. */
async function rejectedPackage(surname: string): Promise<{ packageName: string }> {
  const ready = await readyPackage(surname);
  const analyst = await apiToken(DEMO_ANALYST);
  await apiCall(
    analyst,
    'POST',
    endpointPath(pledgeEndpoints.transitionPackage.path, { id: ready.packageId }),
    {
      action: 'send',
    },
  );
  await apiCall(
    analyst,
    'POST',
    endpointPath(pledgeEndpoints.transitionPackage.path, { id: ready.packageId }),
    {
      action: 'reject',
      comment: 'Неверная дата договора',
    },
  );
  return ready;
}

test('a package move asks first (cancel changes nothing); the registry rejects, the notification is corrected and goes into a new package; a package lists its events', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const surname = `Отказов${Math.random().toString(36).slice(2, 7)}`;
  const { packageName } = await readyPackage(surname);
  await signInThroughForm(page, DEMO_ANALYST);
  await page.goto('/pledges/events-registry/packages');
  const card = page.getByRole('region', { name: packageName });
  await expect(card.getByTestId('package-status')).toHaveText('Готов к отправке');

  // D: the confirmation appears, and «Отмена» leaves the package as it was.
  await card.getByRole('button', { name: 'Отметить отправку' }).click();
  const confirm = page.getByRole('dialog', { name: 'Отметить отправку пакета?' });
  await expect(confirm).toContainText('нельзя отменить');
  await confirm.getByRole('button', { name: 'Отмена' }).click();
  await expect(confirm).toBeHidden();
  await page.reload();
  await expect(card.getByTestId('package-status')).toHaveText('Готов к отправке');
  await card.getByRole('button', { name: 'Отметить отправку' }).click();
  await confirm.getByRole('button', { name: 'Отметить отправку' }).click();
  await expect(card.getByTestId('package-status')).toHaveText('Отправлен');

  // The registry refuses it, with the reason.
  await card.getByRole('button', { name: 'Отказ реестра' }).click();
  await page.getByRole('textbox', { name: 'Причина отказа' }).fill('Неверная дата договора');
  await page.getByRole('dialog').getByRole('button', { name: 'Отказ реестра' }).click();
  await expect(card.getByTestId('package-status')).toHaveText('Отклонён');

  // C: the package opens to list its events.
  await card.getByRole('button', { name: 'События пакета' }).click();
  const listed = page.getByRole('dialog', { name: `События пакета «${packageName}»` });
  await expect(listed.getByTestId('package-event-row')).toHaveCount(1);
  await expect(listed.getByTestId('package-event-row')).toContainText(surname);
  await expect(listed.getByTestId('package-event-row')).toContainText('Отказ реестра');
  await listed.getByRole('button', { name: 'Закрыть' }).click();

  // A: the event shows the rejection; it is corrected and goes into a new package.
  await page.getByRole('tab', { name: 'События', exact: true }).click();
  await page.getByRole('textbox', { name: 'Залогодатель' }).fill(surname);
  const row = page.getByTestId('pledge-event-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Отказ реестра');
  await expect(row.getByTestId('rejection-reason')).toHaveText('Причина отказа: Неверная дата договора');
  await row.click();
  await expect(page.getByTestId('rejection-alert')).toContainText('Неверная дата договора');
  await page.getByRole('button', { name: 'Исправить' }).click();
  const correction = page.getByRole('dialog', { name: 'Исправить уведомление' });
  await typeDate(correction, 'Договор: дата', '2025-02-28');
  await correction.getByRole('button', { name: 'Сохранить исправление' }).click();
  await expect(correction).toBeHidden();
  await expect(page.getByText('Отказы реестра')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(row).toContainText('Не в пакете');
  await expect(row).toContainText('от 28.02.2025');
  await row.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Создать пакет' }).click();
  await expect(row).toContainText('Черновик');
  await page.getByRole('tab', { name: 'Пакеты' }).click();
  await expect(page.getByRole('region', { name: packageName })).toContainText('Отклонён');
});

test('events: a detail view with before → after and links; sorting by a column changes the order', async ({
  page,
}) => {
  test.setTimeout(150_000);
  await ensureEvents();
  await signInThroughForm(page, DEMO_ANALYST);
  await page.goto('/monitoring/events');
  const rows = page.getByTestId('event-row');
  await expect(rows.first()).toBeVisible();

  await rows.first().getByRole('button', { name: 'Подробнее' }).click();
  const detail = page.getByRole('dialog');
  await expect(detail.getByText('Было', { exact: true })).toBeVisible();
  await expect(detail.getByText('Стало', { exact: true })).toBeVisible();
  await expect(detail.getByText('Источник', { exact: true })).toBeVisible();
  await expect(detail.getByRole('link', { name: 'Открыть объект' })).toHaveAttribute(
    'href',
    /\/monitoring\/items\?/,
  );
  await detail.getByRole('button', { name: 'Закрыть' }).click();

  const rank = { low: 1, medium: 2, high: 3, critical: 4 } as Record<string, number>;
  const severities = () =>
    rows
      .locator('[data-severity]')
      .evaluateAll((chips) => chips.map((c) => c.getAttribute('data-severity') ?? ''));
  const ranks = async () => (await severities()).map((severity) => rank[severity] ?? 0);
  const ordered = (values: number[], direction: 'asc' | 'desc') =>
    values.length > 0 &&
    values.every(
      (value, i) => i === 0 || (direction === 'asc' ? values[i - 1]! <= value : values[i - 1]! >= value),
    );
  const answered = (pattern: RegExp) =>
    page.waitForResponse(
      (response) => /\/monitoring\/events\/items\?/.test(response.url()) && pattern.test(response.url()),
    );
  // Whatever events earlier tests left, each direction must order the page by severity.
  const descending = answered(/sort=severity/);
  await page.getByRole('button', { name: 'Сортировать: Важность' }).click();
  await descending;
  await expect(page).toHaveURL(/sort=severity/);
  await expect.poll(async () => ordered(await ranks(), 'desc')).toBe(true);
  const highestFirst = await ranks();
  const ascending = answered(/sort=severity.*order=asc|order=asc.*sort=severity/);
  await page.getByRole('button', { name: 'Сортировать: Важность' }).click();
  await ascending;
  await expect(page).toHaveURL(/order=asc/);
  await expect.poll(async () => ordered(await ranks(), 'asc')).toBe(true);
  const lowestFirst = await ranks();
  expect(lowestFirst[0]!).toBeLessThanOrEqual(highestFirst[0]!);
  if (new Set([...highestFirst, ...lowestFirst]).size > 1) {
    // With more than one severity about, the two directions cannot start alike.
    expect(lowestFirst[0]!).toBeLessThan(highestFirst[0]!);
  }
});

/** Screens changed by this work, both sizes and themes, for docs/screenshots.md (DOCS_SCREENSHOTS=1). */
test.describe('registry and events screens', () => {
  test.skip(!DOCS_SCREENSHOTS, 'writes docs/screenshots; set DOCS_SCREENSHOTS=1');
  for (const theme of ['light', 'dark'] as const) {
    test(`screens, ${theme} theme`, async ({ page, context, baseURL }) => {
      test.setTimeout(180_000);
      await ensureEvents();
      await context.addCookies([
        { name: 'theme', value: theme, url: baseURL! },
        { name: 'serverTheme', value: theme, url: baseURL! },
      ]);
      const surname = `Экранов${Math.random().toString(36).slice(2, 7)}`;
      const ready = await readyPackage(`Готовов${Math.random().toString(36).slice(2, 7)}`);
      const rejected = await rejectedPackage(surname);
      await signInThroughForm(page, DEMO_ANALYST);
      for (const size of [
        { name: 'desktop', ...DESKTOP },
        { name: 'mobile', ...PHONE },
      ]) {
        await page.setViewportSize({ width: size.width, height: size.height });
        const suffix = `${size.name}-${theme}`;
        await shoot(page, { ready: ready.packageName, rejected: rejected.packageName }, surname, suffix);
      }
    });
  }
});

async function shoot(
  page: Page,
  packages: { ready: string; rejected: string },
  surname: string,
  suffix: string,
) {
  await page.goto('/pledges/events-registry/packages');
  const card = page.getByRole('region', { name: packages.ready });
  await card.getByRole('button', { name: 'Отметить отправку' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await saveDocScreenshot(page, `package-confirm-${suffix}`);
  await page.getByRole('dialog').getByRole('button', { name: 'Отмена' }).click();
  await expect(page.getByRole('dialog')).toBeHidden();
  await page
    .getByRole('region', { name: packages.rejected })
    .getByRole('button', { name: 'События пакета' })
    .click();
  await expect(page.getByTestId('package-event-row')).toHaveCount(1);
  await saveDocScreenshot(page, `package-events-${suffix}`);
  await page.getByRole('dialog').getByRole('button', { name: 'Закрыть' }).click();
  await page.goto(`/pledges/events-registry/table`);
  await expect(page.getByTestId('pledge-event-row').first()).toBeVisible();
  // The list's first cards, whatever scroll the packages page left behind.
  await page.evaluate(() => window.scrollTo(0, 0));
  await saveDocScreenshot(page, `pledge-events-registry-${suffix}`);
  await filterByPledgor(page, surname, suffix);
  await expect(page.getByTestId('pledge-event-row')).toHaveCount(1);
  await page.getByTestId('pledge-event-row').first().click();
  await expect(page.getByRole('button', { name: 'Исправить' })).toBeVisible();
  await saveDocScreenshot(page, `pledge-event-drawer-${suffix}`);
  await page.goto('/monitoring/events?sort=severity&order=desc');
  await expect(page.getByTestId('event-row').first()).toBeVisible();
  await saveDocScreenshot(page, `events-sorted-${suffix}`);
  await page.getByTestId('event-row').first().getByRole('button', { name: 'Подробнее' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await saveDocScreenshot(page, `event-detail-${suffix}`);
}

/** On a phone the registry's filters are in a drawer: it is opened (and shot), filled and closed. */
async function filterByPledgor(page: Page, surname: string, suffix: string) {
  if (!suffix.startsWith('mobile')) {
    await page.getByRole('textbox', { name: 'Залогодатель' }).fill(surname);
    return;
  }
  await page.getByRole('button', { name: 'Фильтры' }).click();
  const drawer = page.getByRole('dialog', { name: 'Фильтры' });
  await drawer.getByRole('textbox', { name: 'Залогодатель' }).fill(surname);
  await saveDocScreenshot(page, `pledge-events-registry-filters-${suffix}`);
  await drawer.getByRole('button', { name: 'Показать' }).click();
  await expect(drawer).toBeHidden();
}
