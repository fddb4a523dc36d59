import { type Browser, expect, type Page, test } from '@playwright/test';
import { ROUTES } from '@pledgewatch/contract';
import { DESKTOP, DOCS_SCREENSHOTS, PHONE, saveDocScreenshot } from '../support/doc-screenshots.ts';
import { apiCall, apiToken, DEMO_ADMIN } from '../support/session.ts';
import { E2E_APP_URL } from '../support/stack.ts';

/**
 * Every screen of the app fits its window: on a 390 px phone and on a 1400 px desktop the page never
 * scrolls sideways, and on the desktop no table or card is wider than its box (no inner sideways
 * scroll, no column cut at the edge). The screens are the route table's own, so a new screen is
 * checked without being listed here.
 */
const SCREENS = [
  ...Object.values(ROUTES)
    .filter((route) => route.layout === 'default' && !route.path.includes(':'))
    .map((route) => route.path)
    // Token pages: without a token they only say the link is broken.
    .filter((path) => !path.endsWith('verify-email')),
  ...['users', 'apiKeys', 'audit', 'outbox', 'sessions'].map((tab) => `/settings?tab=${tab}`),
];

/** The screens of issue #24 shown in docs/screenshots.md (written with DOCS_SCREENSHOTS=1). */
const DOC_SHOTS: Record<string, string> = {
  '/monitoring/statistics': 'fit-statistics',
  '/monitoring/report': 'fit-report',
  '/monitoring/checks': 'fit-checks',
  '/monitoring/events': 'fit-events',
  '/monitoring/one-time-check/table': 'fit-check-history',
  '/settings?tab=audit': 'fit-audit-log',
  '/monitoring/notifications': 'fit-notification-rules',
  '/monitoring/uploads-history': 'fit-uploads-history',
  '/monitoring/items': 'fit-items',
  '/pledges/events-registry': 'fit-registry',
};

/**
 * Screens this check found too wide and that are not fixed yet (issue #24 stays open for them): each
 * runs as `fixme` with what it measured, so the list shrinks as they are fixed and no new screen
 * joins it unnoticed.
 */
const KNOWN_UNFIT: Record<string, string> = {};

/** The screen has drawn its data: its heading is there and nothing is still loading. */
async function settle(page: Page): Promise<void> {
  await expect(page.locator('h1').first()).toBeVisible({ timeout: 30_000 });
  // A running check keeps a placeholder on its own screen: waited for a while, not required to go.
  await page
    .locator('.MuiSkeleton-root')
    .first()
    .waitFor({ state: 'detached', timeout: 15_000 })
    .catch(() => undefined);
  // Charts and tables measure themselves after the data has arrived (a running check's progress bar
  // may stay on the screen, so it is not waited for).
  await page.waitForTimeout(800);
}

/** The page's own width beyond the window, in pixels (0 when it does not scroll sideways). */
const pageOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/**
 * Phone cards whose head does not fit: the title running under the chip at its right, or a chip
 * whose label is cut («На монитори…»).
 */
const cardHeadProblems = (page: Page) =>
  page.evaluate(() => {
    const problems: string[] = [];
    for (const title of document.querySelectorAll<HTMLElement>('main [data-card-role="title"]')) {
      const right = title.nextElementSibling;
      const titleRight = Math.max(
        ...[...title.querySelectorAll<HTMLElement>('*')].map((node) => node.getBoundingClientRect().right),
        title.getBoundingClientRect().right,
      );
      if (right && titleRight > right.getBoundingClientRect().left + 1) {
        problems.push(`«${title.textContent}» runs under «${right.textContent}»`);
      }
    }
    for (const label of document.querySelectorAll<HTMLElement>('main .MuiChip-label')) {
      if (label.offsetParent !== null && label.scrollWidth > label.clientWidth + 1) {
        problems.push(`chip «${label.textContent}» is cut`);
      }
    }
    return problems;
  });

/** Tables and cards that are wider than their box: what sticks out, by how much. */
const boxOverflows = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('main .MuiTableContainer-root, main .MuiPaper-root')]
      .filter((box) => box.offsetParent !== null && box.scrollWidth > box.clientWidth + 1)
      .map((box) => {
        const label =
          box.getAttribute('aria-label') ??
          box.querySelector('h2, h3, caption, th')?.textContent ??
          box.className.split(' ')[0];
        return `${label}: ${box.scrollWidth - box.clientWidth}px`;
      }),
  );

/** A page signed in as the demo admin (through the form, with room for a slow password check). */
async function signedInPage(browser: Browser, viewport: { width: number; height: number }): Promise<Page> {
  const page = await browser.newPage({
    baseURL: E2E_APP_URL,
    viewport,
    locale: 'ru-RU',
    timezoneId: 'Europe/Moscow',
  });
  await page.goto('/auth');
  await page.getByLabel('E-mail').fill(DEMO_ADMIN.email);
  await page.getByLabel('Пароль', { exact: true }).fill(DEMO_ADMIN.password);
  await page.getByRole('button', { name: 'Войти' }).click();
  await expect(page).not.toHaveURL(/\/auth/, { timeout: 60_000 });
  return page;
}

let waitingUpload: string | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const token = await apiToken(DEMO_ADMIN);
  // An upload to be checked and left waiting, so the history has the longest status chip («Проверен,
  // ждёт подтверждения», once cut on a phone card); cancelled afterwards, so it adds nothing to the
  // portfolio. Not waited for here: on a fresh stack its check may wait minutes behind the demo's jobs.
  const form = new FormData();
  form.append(
    'file',
    new Blob(['VIN;Метка\nXTA21703080999991;Проверка раскладки\n'], { type: 'text/csv' }),
    'layout.csv',
  );
  const upload = await fetch(`${E2E_APP_URL}/api/v1/monitoring/uploads`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  expect(upload.status, await upload.clone().text()).toBe(202);
  waitingUpload = ((await upload.json()) as { id: string }).id;
  // A regular check in the runs table (its events fill the lists while the screens are visited).
  await fetch(`${E2E_APP_URL}/api/v1/monitoring/check-runs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
  });
  // A vehicle with a bank's long unbroken contract number (as the integration example writes them): its
  // column wraps the number instead of widening the objects table.
  await apiCall(token, 'POST', '/api/v1/monitoring/regular-check/form-vin', {
    rows: [{ vin: 'XTA21703080999992', contractNumber: `КД-2026-${Date.now()}-0001` }],
  });
  // A one-time check in the history, so its phone cards (VIN and status chip) are on the screen.
  await apiCall(token, 'POST', '/api/v1/monitoring/one-time-check', { vin: 'XTA21703080123456' });
});

// Tidying only: a cancel that fails leaves an upload nobody confirms, which no later spec counts on.
test.afterAll(async () => {
  if (waitingUpload) {
    await apiCall(
      await apiToken(DEMO_ADMIN),
      'POST',
      `/api/v1/monitoring/uploads/${waitingUpload}/cancel`,
      {},
    ).catch(() => undefined);
  }
});

for (const [name, viewport] of [
  ['phone 390', PHONE],
  ['desktop 1400', DESKTOP],
] as const) {
  test.describe(`every screen fits a ${name} window`, () => {
    let page: Page;
    test.beforeAll(async ({ browser }) => {
      test.setTimeout(120_000);
      page = await signedInPage(browser, viewport);
    });
    // A sign-in that failed (or a restarted browser) leaves no page to close.
    test.afterAll(async () => {
      await page?.close();
    });

    for (const path of SCREENS) {
      const also =
        viewport === DESKTOP ? 'no table or card wider than its box' : 'card heads fit, chips whole';
      test(`${path}: no sideways scroll, ${also}`, async () => {
        const known = KNOWN_UNFIT[`${viewport === DESKTOP ? 'desktop' : 'phone'}:${path}`];
        test.fixme(known !== undefined, known);
        test.setTimeout(180_000);
        await page.goto(path);
        await settle(page);
        if (path === '/monitoring/uploads-history') {
          // The waiting upload's chip, once its check is done (the list follows running uploads itself).
          await page
            .locator('[data-testid="upload-status"][data-status="validated"]')
            .first()
            .waitFor({ timeout: 90_000 })
            .catch(() => undefined);
        }
        if (DOCS_SCREENSHOTS && DOC_SHOTS[path]) {
          await saveDocScreenshot(page, `${DOC_SHOTS[path]}-${viewport === DESKTOP ? 'desktop' : 'mobile'}`);
        }
        const failures: string[] = [];
        const overflow = await pageOverflow(page);
        if (overflow > 0) {
          failures.push(`the page is ${overflow}px wider than the window`);
        }
        failures.push(...(await (viewport === DESKTOP ? boxOverflows(page) : cardHeadProblems(page))));
        expect(failures).toEqual([]);
      });
    }

    // The header's search has no screen of its own: shown open, with its results, for the docs only.
    test('the header search with its results, for docs/screenshots.md', async () => {
      test.skip(!DOCS_SCREENSHOTS, 'writes docs/screenshots; set DOCS_SCREENSHOTS=1');
      test.setTimeout(180_000);
      await page.goto('/news');
      await settle(page);
      const box = page.getByRole('combobox', { name: /Поиск по объектам/ });
      if (viewport === DESKTOP) {
        await expect(async () => {
          await page.keyboard.press('/');
          await expect(box).toBeFocused({ timeout: 2_000 });
        }).toPass({ timeout: 60_000 });
      } else {
        await page.getByRole('button', { name: 'Поиск' }).filter({ visible: true }).click();
        await expect(box).toBeFocused();
      }
      await box.fill('XTA21');
      await expect(page.getByRole('option').first()).toBeVisible({ timeout: 30_000 });
      await page.waitForTimeout(500);
      await saveDocScreenshot(page, `fit-search-${viewport === DESKTOP ? 'desktop' : 'mobile'}`);
    });
  });
}
