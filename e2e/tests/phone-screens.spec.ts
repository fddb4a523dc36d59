import { expect, type Page, test } from '@playwright/test';
import { checkEndpoints, pledgeEndpoints } from '@pledgewatch/contract';
import { DESKTOP, DOCS_SCREENSHOTS, PHONE, saveDocScreenshot } from '../support/doc-screenshots.ts';
import { ensureEvents as startEvents } from '../support/events.ts';
import { newVin } from '../support/identifiers.ts';
import { enterPledgeEvent } from '../support/pledges.ts';
import { apiCall, apiToken, DEMO_ADMIN, DEMO_ANALYST, signInThroughForm } from '../support/session.ts';

/**
 * Issue #14 on a 390×844 phone: lists become cards, filters move into a drawer, nothing scrolls
 * sideways, and dates are picked in Russian (ДД.ММ.ГГГГ, Monday first).
 */

type Page_<T> = { items: T[]; total: number };
const VIN = 'XTA21703080123456';

/** The demo organisation's events (a regular check is run if none ran yet), counted. */
async function ensureEvents(token: string): Promise<number> {
  await startEvents();
  return (await apiCall<Page_<unknown>>(token, 'GET', `${checkEndpoints.events.path}?pageSize=10`)).total;
}

/** The page itself does not scroll sideways at this width. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({
    scroll: document.scrollingElement?.scrollWidth ?? 0,
    inner: window.innerWidth,
  }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
}

test.describe('on a phone', () => {
  test.use({ viewport: PHONE });

  test('events are cards that open with before → after, filtered in a drawer', async ({ page }) => {
    test.setTimeout(150_000);
    const token = await apiToken(DEMO_ANALYST);
    expect(await ensureEvents(token)).toBeGreaterThan(0);
    await signInThroughForm(page, DEMO_ANALYST);
    await page.goto('/monitoring/events');

    const cards = page.getByRole('list', { name: 'События' }).getByTestId('event-row');
    await expect(cards.first()).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(0);
    // The card leads with its item and event; what changed follows.
    const blocks = cards.first().locator('[data-card-role]');
    await expect(blocks.first()).toHaveAttribute('data-card-role', 'title');
    await expect(blocks.nth(1)).toHaveAttribute('data-card-role', 'beforeAfter');
    await expect(blocks.nth(1)).toHaveText(/→|Новая запись|Запись исчезла|.+/);
    await expectNoSidewaysScroll(page);

    // The filters wait behind one button until asked for.
    await expect(page.getByLabel('Важность')).toHaveCount(0);
    await page.getByRole('button', { name: 'Фильтры' }).click();
    const drawer = page.getByRole('dialog', { name: 'Фильтры' });
    await drawer.getByRole('combobox', { name: 'Прочтение' }).click();
    await page.getByRole('option', { name: 'Непрочитанные' }).click();
    await expect(page).toHaveURL(/read=false/);
    await drawer.getByRole('button', { name: 'Показать' }).click();
    await expect(drawer).toBeHidden();
    await expect(page.getByRole('button', { name: 'Фильтры: 1' })).toBeVisible();
    const unread = await apiCall<Page_<unknown>>(
      token,
      'GET',
      `${checkEndpoints.events.path}?read=false&pageSize=10`,
    );
    if (unread.total > 0) {
      await expect(cards.first()).toHaveAttribute('data-read', 'false');
    }
    for (const read of await cards.evaluateAll((nodes) => nodes.map((node) => node.dataset.read))) {
      expect(read).toBe('false');
    }

    // A card opens the event's detail, as a table row does.
    await page.goto('/monitoring/events');
    await cards.first().getByRole('button', { name: 'Подробнее' }).click();
    const detail = page.getByRole('dialog');
    await expect(detail.getByText('Было', { exact: true })).toBeVisible();
    await expect(detail.getByText('Стало', { exact: true })).toBeVisible();
    await detail.getByRole('button', { name: 'Закрыть' }).click();
    await expect(detail).toBeHidden();

    // Cards have no headers to click: the server sort is a field above them.
    const rank = { low: 1, medium: 2, high: 3, critical: 4 } as Record<string, number>;
    const ranks = async () =>
      (
        await cards
          .locator('[data-severity]')
          .evaluateAll((chips) => chips.map((chip) => chip.getAttribute('data-severity') ?? ''))
      ).map((severity) => rank[severity] ?? 0);
    /** The page's cards are in this order of importance (1 rising, -1 falling). */
    const sortedBy = (direction: 1 | -1) => async () => {
      const now = await ranks();
      return now.length > 0 && now.join() === [...now].sort((a, b) => direction * (a - b)).join();
    };
    await page.getByRole('combobox', { name: 'Сортировка' }).click();
    await page.getByRole('option', { name: 'Важность' }).click();
    await expect(page).toHaveURL(/sort=severity&order=desc/);
    await expect.poll(sortedBy(-1)).toBe(true);
    await page.getByRole('button', { name: /По убыванию/ }).click();
    await expect(page).toHaveURL(/sort=severity&order=asc/);
    await expect.poll(sortedBy(1)).toBe(true);
  });

  test('items are cards, server pages still turn', async ({ page }) => {
    const token = await apiToken(DEMO_ANALYST);
    await apiCall(token, 'POST', '/api/v1/monitoring/regular-check/form-vin', {
      rows: [{ vin: VIN, label: 'Телефон e2e' }],
    });
    await signInThroughForm(page, DEMO_ANALYST);
    await page.goto('/monitoring/items?search=Телефон%20e2e');
    const card = page.getByRole('list').getByTestId('item-row');
    await expect(card.first()).toContainText(VIN);
    await expect(card.first()).toContainText('Телефон e2e');
    await expect(page.getByRole('table')).toHaveCount(0);
    await expectNoSidewaysScroll(page);
    // Cards have no headers to click: the sort is a field of its own above them.
    await page.getByRole('combobox', { name: 'Сортировка' }).click();
    // The options name orders; the time zone belongs to the times shown, not to them.
    await expect(page.getByRole('option')).toHaveText([
      'Дата добавления',
      'VIN',
      'Метка',
      'Договор',
      'Последняя проверка',
    ]);
    await page.getByRole('option', { name: 'Метка' }).click();
    await expect(page).toHaveURL(/sort=label&order=asc/);
    await page.getByRole('button', { name: /По возрастанию/ }).click();
    // Descending is the default order, left out of the URL.
    await expect(page.getByRole('button', { name: /По убыванию/ })).toBeVisible();
    await expect(page).not.toHaveURL(/order=asc/);
    await expect(page).toHaveURL(/sort=label/);
    await page.goto('/monitoring/items?pageSize=10');
    await expect(card).toHaveCount(10);
    const next = page.getByRole('button', { name: /следующ/i });
    // Within the screen's width (below the cards, so further down the page).
    const arrow = await next.boundingBox();
    expect((arrow?.x ?? PHONE.width) + (arrow?.width ?? 0)).toBeLessThanOrEqual(PHONE.width);
    await next.click();
    await expect(page).toHaveURL(/page=2/);
    await expect(card.first()).toBeVisible();
    await expectNoSidewaysScroll(page);
  });

  test('the uploads history fits the screen', async ({ page }) => {
    await signInThroughForm(page, DEMO_ANALYST);
    await page.goto('/monitoring/uploads-history');
    await expect(page.getByRole('heading', { name: 'История загрузок', level: 1 })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Фильтры' })).toBeVisible();
    await expectNoSidewaysScroll(page);
  });

  test("a member's card asks before disabling them; «Отмена» leaves them active", async ({ page }) => {
    await signInThroughForm(page, DEMO_ADMIN);
    await page.goto('/settings?tab=users');
    const analyst = page.getByTestId('user-row').filter({ hasText: DEMO_ANALYST.email });
    await expect(analyst.locator('[data-status]')).toHaveAttribute('data-status', 'active');
    await analyst.getByRole('button', { name: 'Отключить' }).click();
    const confirm = page.getByRole('dialog', { name: 'Отключить пользователя?' });
    await expect(confirm).toBeVisible();
    await confirm.getByRole('button', { name: 'Отмена' }).click();
    await expect(confirm).toBeHidden();
    await expect(analyst.locator('[data-status]')).toHaveAttribute('data-status', 'active');
  });

  for (const [screen, tablesLeft] of [
    ['/monitoring/checks', 0],
    ['/monitoring/notifications', 0],
    ['/settings?tab=users', 0],
    ['/settings?tab=audit', 0],
    ['/settings?tab=sessions', 0],
  ] as const) {
    test(`${screen} shows cards and does not scroll sideways`, async ({ page }) => {
      await signInThroughForm(page, DEMO_ADMIN);
      await page.goto(screen);
      await expect(page.locator('h1')).toBeVisible();
      await page.waitForLoadState('networkidle');
      await expectNoSidewaysScroll(page);
      await expect(page.getByRole('table')).toHaveCount(tablesLeft);
    });
  }

  test("the profile's sessions are cards, the current one marked", async ({ page }) => {
    await signInThroughForm(page, DEMO_ANALYST);
    await page.goto('/settings?tab=sessions');
    const current = page.getByRole('list').getByTestId('session-row').filter({ hasText: 'Текущий сеанс' });
    await expect(current).toHaveCount(1);
    await expect(current.getByRole('button', { name: 'Завершить' })).toHaveCount(0);
    await expect(page.getByRole('table')).toHaveCount(0);
    await expectNoSidewaysScroll(page);
  });

  test('the pledge registry is cards; its filters open in a drawer, narrow the list, and a card is chosen into a package', async ({
    page,
  }) => {
    const surname = `Телефонов${Math.random().toString(36).slice(2, 7)}`;
    await enterPledgeEvent(surname);
    await signInThroughForm(page, DEMO_ANALYST);
    await page.goto('/pledges/events-registry/table');
    const cards = page.getByTestId('pledge-event-row');
    await expect(cards.first()).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(0);
    await expectNoSidewaysScroll(page);

    // The filters wait behind one button; a pledgor typed there leaves that one event.
    await expect(page.getByRole('textbox', { name: 'Залогодатель' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Фильтры' }).click();
    const drawer = page.getByRole('dialog', { name: 'Фильтры' });
    await drawer.getByRole('textbox', { name: 'Залогодатель' }).fill(surname);
    await drawer.getByRole('button', { name: 'Показать' }).click();
    await expect(drawer).toBeHidden();
    await expect(page.getByRole('button', { name: 'Фильтры: 1' })).toBeVisible();
    await expect(cards).toHaveCount(1);
    const card = cards.first();
    await expect(card).toHaveAttribute('data-kind', 'creation');
    for (const field of [surname, 'Возникновение', 'Не в пакете', '01.03.2025', /XTA21099.RY/]) {
      await expect(card).toContainText(field);
    }
    await expectNoSidewaysScroll(page);

    // The card's checkbox chooses it, as the row's does; the new package's name shows on the card.
    await card.getByRole('checkbox', { name: `Выбрать: Возникновение ДЗ-${surname}` }).check();
    await expect(page.getByTestId('selection-bar')).toContainText('Выбрано: 1');
    await page.getByRole('button', { name: 'Создать пакет' }).click();
    await expect(page.getByTestId('selection-bar')).toBeHidden();
    await expect(card).toContainText(/Пакет/);
    await expect(card).not.toContainText('Не в пакете');

    // A card opens the event as a row does.
    await card.click();
    await expect(page.getByText(`ДЗ-${surname}`).last()).toBeVisible();
  });

  test("a pledge file's preview and refused rows are cards", async ({ page }) => {
    const surname = `Файлов${Math.random().toString(36).slice(2, 7)}`;
    const header = ['Вид уведомления', 'Дата уведомления', 'Залогодатель: тип', 'Залогодатель: фамилия']
      .concat(['Залогодатель: имя', 'Залогодатель: дата рождения', 'Залогодатель: серия и номер документа'])
      .concat(['Залогодержатель: наименование', 'Залогодержатель: ИНН', 'Залогодержатель: ОГРН'])
      .concat(['Договор: номер', 'Договор: дата', 'VIN', 'Описание ТС']);
    const row = (vin: string) =>
      ['Возникновение', '01.03.2025', 'ФЛ', surname, 'Анна', '01.02.1990', '4511 123456', 'ПАО Сбербанк']
        .concat(['7707083893', '1027700132195', `КД-${surname}`, '01.03.2025', vin, 'Kia Rio'])
        .join(';');
    const csv = [header.join(';'), row(newVin()), row('XTA21099OY1234567')].join('\r\n');
    await signInThroughForm(page, DEMO_ANALYST);
    await page.goto('/pledges/upload-events/table');
    await page
      .getByTestId('file-input')
      .setInputFiles({ name: `${surname}.csv`, mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect(page.getByTestId('upload-view')).toHaveAttribute('data-status', 'validated', {
      timeout: 30_000,
    });
    const preview = page.getByRole('list', { name: 'Принятые строки' });
    await expect(preview.getByRole('listitem')).toHaveCount(1);
    await expect(preview).toContainText(surname);
    await expect(preview).toContainText(/Строка \d+/);
    const refused = page.getByTestId('rejected-rows').getByRole('list');
    await expect(refused).toContainText(/Строка \d+/);
    await expect(refused).toContainText('недопустимые символы I, O, Q');
    await expect(page.getByRole('table')).toHaveCount(0);
    await expectNoSidewaysScroll(page);
  });

  test("a package's events are cards in its dialog", async ({ page }) => {
    const surname = `Пакетов${Math.random().toString(36).slice(2, 7)}`;
    const eventId = await enterPledgeEvent(surname);
    const created = await apiCall<{ name: string }>(
      await apiToken(DEMO_ANALYST),
      'POST',
      pledgeEndpoints.createPackage.path,
      { name: `Пакет ${surname}`, eventIds: [eventId] },
    );
    await signInThroughForm(page, DEMO_ANALYST);
    await page.goto('/pledges/events-registry/packages');
    await page
      .getByRole('region', { name: created.name })
      .getByRole('button', { name: 'События пакета' })
      .click();
    const dialog = page.getByRole('dialog', { name: `События пакета «${created.name}»` });
    const cards = dialog.getByTestId('package-event-row');
    await expect(cards).toHaveCount(1);
    for (const field of [surname, 'Возникновение', '01.03.2025', /XTA21099.RY/]) {
      await expect(cards.first()).toContainText(field);
    }
    await expect(page.getByRole('table')).toHaveCount(0);
    await expectNoSidewaysScroll(page);
  });

  test('notification rules and the one-time check history are cards', async ({ page }) => {
    const admin = await apiToken(DEMO_ADMIN);
    const name = `Телефон e2e ${Math.random().toString(36).slice(2, 7)}`;
    await apiCall(admin, 'POST', '/api/v1/monitoring/notifications/settings', {
      name,
      enabled: false,
      method: 'webhook',
      config: { url: 'https://hooks.bank.example/phone', secret: 'e2e-secret-0123456789' },
    });
    const check = await apiCall<{ id: string; number: string }>(
      admin,
      'POST',
      checkEndpoints.oneTimeCheck.path,
      {
        vin: VIN,
      },
    );
    await signInThroughForm(page, DEMO_ADMIN);
    await page.goto('/monitoring/notifications');
    const rule = page.getByTestId('notification-rule-row').filter({ hasText: name });
    await expect(rule).toContainText('https://hooks.bank.example/phone');
    await expect(rule.getByRole('switch', { name: new RegExp(name) })).not.toBeChecked();
    await expect(rule.getByRole('button', { name: `Изменить: ${name}` })).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(0);
    await expectNoSidewaysScroll(page);

    await page.goto('/monitoring/one-time-check/table');
    const cards = page.getByTestId('check-row');
    await expect(cards.first()).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(0);
    await expectNoSidewaysScroll(page);
    const mine = cards.filter({ hasText: String(check.number) });
    await expect(mine.first()).toContainText(VIN);
    await page.getByRole('button', { name: 'Фильтры' }).click();
    await expect(page.getByRole('dialog', { name: 'Фильтры' })).toBeVisible();
  });

  test('the one-time check document fits the screen', async ({ page }) => {
    const token = await apiToken(DEMO_ANALYST);
    const check = await apiCall<{ id: string }>(token, 'POST', checkEndpoints.oneTimeCheck.path, {
      vin: VIN,
    });
    await signInThroughForm(page, DEMO_ANALYST);
    await page.goto(`/monitoring/one-time-check/document/${check.id}`);
    const sheet = page.getByTestId('check-document');
    await expect(sheet.getByRole('table')).toBeVisible();
    await expectNoSidewaysScroll(page);
    // Nothing inside the sheet scrolls sideways either (its sources table stacks).
    const overflow = await sheet.evaluate(
      (node) =>
        [node, ...node.querySelectorAll('*')].filter((child) => child.scrollWidth > child.clientWidth + 1)
          .length,
    );
    expect(overflow).toBe(0);
    const box = await sheet.boundingBox();
    expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 999) <= PHONE.width).toBe(true);
  });
});

test('dates are picked in Russian: ДД.ММ.ГГГГ, Monday first, and filter the events', async ({ page }) => {
  test.setTimeout(150_000);
  await page.setViewportSize(DESKTOP);
  const token = await apiToken(DEMO_ANALYST);
  expect(await ensureEvents(token)).toBeGreaterThan(0);
  await signInThroughForm(page, DEMO_ANALYST);
  await page.goto('/monitoring/events');
  await expect(page.getByTestId('event-row').first()).toBeVisible();

  await page.getByRole('button', { name: 'Выберите дату' }).first().click();
  const calendar = page.getByRole('grid');
  const weekdays = calendar.getByRole('columnheader');
  await expect(weekdays.first()).toHaveAttribute('aria-label', /понедельник/i);
  await expect(weekdays.last()).toHaveAttribute('aria-label', /воскресенье/i);
  await calendar.getByRole('gridcell', { name: '1', exact: true }).click();
  await expect(page).toHaveURL(/from=\d{4}-\d{2}-01/);
  const from = new URL(page.url()).searchParams.get('from') ?? '';
  const [year, month] = from.split('-');
  const fromField = page.getByRole('group', { name: 'С даты' });
  await expect(fromField).toContainText(`01.${month}.${year}`);

  // A period long past has no events: the list follows the picked days.
  await page.goto('/monitoring/events?from=2020-01-01');
  await expect(page.getByRole('group', { name: 'С даты' })).toContainText('01.01.2020');
  await expect(page.getByTestId('event-row').first()).toBeVisible();
  const toField = page.getByRole('group', { name: 'По дату' });
  await toField.getByRole('spinbutton', { name: 'День' }).click();
  await page.keyboard.type('31122020');
  await expect(page).toHaveURL(/to=2020-12-31/);
  await expect(page.getByText('Событий по этим условиям не найдено.')).toBeVisible();
  await expect(page.getByTestId('event-row')).toHaveCount(0);
});

test.describe('docs screenshots', () => {
  test.skip(!DOCS_SCREENSHOTS, 'writes docs/screenshots; set DOCS_SCREENSHOTS=1');
  for (const theme of ['light', 'dark'] as const) {
    test(`phone and desktop lists, ${theme} theme`, async ({ page, context, baseURL }) => {
      test.setTimeout(240_000);
      await context.addCookies([
        { name: 'theme', value: theme, url: baseURL! },
        { name: 'serverTheme', value: theme, url: baseURL! },
      ]);
      const token = await apiToken(DEMO_ANALYST);
      await ensureEvents(token);
      const check = await apiCall<{ id: string }>(token, 'POST', checkEndpoints.oneTimeCheck.path, {
        vin: VIN,
      });
      await signInThroughForm(page, DEMO_ANALYST);
      for (const [size, viewport] of [
        ['desktop', DESKTOP],
        ['mobile', PHONE],
      ] as const) {
        await page.setViewportSize(viewport);
        const suffix = `${size}-${theme}`;
        await page.goto('/monitoring/events');
        await expect(page.getByTestId('event-row').first()).toBeVisible();
        await saveDocScreenshot(page, `events-${suffix}`);
        if (size === 'mobile') {
          await page.getByRole('button', { name: 'Фильтры' }).click();
          await expect(page.getByRole('dialog', { name: 'Фильтры' })).toBeVisible();
          await saveDocScreenshot(page, `events-filters-${suffix}`);
          await page.keyboard.press('Escape');
        }
        await page.goto('/monitoring/items');
        await expect(page.getByTestId('item-row').first()).toBeVisible();
        await saveDocScreenshot(page, `items-${suffix}`);
        await page.goto('/monitoring/uploads-history');
        await expect(page.getByRole('heading', { name: 'История загрузок', level: 1 })).toBeVisible();
        await saveDocScreenshot(page, `uploads-history-cards-${suffix}`);
        await page.goto('/monitoring/one-time-check/table');
        await expect(page.getByTestId('check-row').first()).toBeVisible();
        await saveDocScreenshot(page, `check-history-${suffix}`);
        await page.goto('/monitoring/notifications');
        await expect(page.getByRole('heading', { name: 'Правила уведомлений' })).toBeVisible();
        await page.waitForLoadState('networkidle');
        await saveDocScreenshot(page, `notification-rules-${suffix}`);
        await page.goto(`/monitoring/one-time-check/document/${check.id}`);
        await expect(page.getByTestId('check-document')).toBeVisible();
        await saveDocScreenshot(page, `check-document-${suffix}`);
        await page.goto('/monitoring/events');
        await page
          .getByRole('button', { name: size === 'mobile' ? 'Фильтры' : 'Выберите дату' })
          .first()
          .click();
        if (size === 'mobile') {
          await page
            .getByRole('dialog', { name: 'Фильтры' })
            .getByRole('button', { name: 'Выберите дату' })
            .first()
            .click();
        }
        await expect(page.getByRole('grid')).toBeVisible();
        await saveDocScreenshot(page, `date-picker-${suffix}`);
      }
    });
  }
});
