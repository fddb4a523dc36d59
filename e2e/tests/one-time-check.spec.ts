import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { SOURCE_TYPES } from '@pledgewatch/contract';
import { PDFParse } from 'pdf-parse';
import { apiCall, apiToken, DEMO_ANALYST, signInThroughForm } from '../support/session.ts';

/**
 * The demo VIN pledged to another creditor, from the server's demo datasets. Imported through a
 * computed specifier so that tsc does not type-check the server module graph under the e2e config
 * (its fastify declarations live in plugin files this project does not include).
 */
const DEMO_DATASETS_MODULE = '../../apps/server/src/demo/demo-datasets.ts';
const { DEMO_PLEDGED_VIN, DEMO_PLEDGE_NOTICE, DEMO_UNWATCHED_PLEDGED_VIN } = (await import(
  DEMO_DATASETS_MODULE
)) as {
  DEMO_PLEDGED_VIN: string;
  DEMO_PLEDGE_NOTICE: string;
  DEMO_UNWATCHED_PLEDGED_VIN: string;
};

/** The sources a VIN check asks, by their Russian names (what the screens and the PDF show). */
const VIN_SOURCE_NAMES = Object.values(SOURCE_TYPES)
  .filter((source) => source.itemKinds.includes('vin'))
  .map((source) => source.name);

async function pdfText(path: string): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(await readFile(path)) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}

test('a one-time check of a pledged VIN: results, printable document and PDF', async ({ page }) => {
  await signInThroughForm(page, DEMO_ANALYST);
  await page.getByRole('link', { name: 'Разовая проверка' }).click();
  await expect(page).toHaveURL(/\/monitoring\/one-time-check$/);
  // The dashboard's quick-check box also has a VIN field: wait until it has left the page.
  await expect(page.getByRole('heading', { name: 'Разовая проверка', level: 1 })).toBeVisible();
  await expect(page.getByTestId('dashboard-quick-check')).toHaveCount(0);

  // Live validation: a forbidden letter is refused before anything is sent.
  const vin = page.getByRole('textbox', { name: 'VIN' });
  await vin.fill('XTA217030C041234O');
  await vin.blur();
  await expect(page.getByText(/недопустимые символы I, O, Q/)).toBeVisible();
  // A valid VIN is decoded on the spot.
  await vin.fill(DEMO_PLEDGED_VIN.toLowerCase());
  await expect(page.getByTestId('vin-preview')).toContainText('Россия');
  await page.getByRole('button', { name: 'Проверить' }).click();

  await expect(page).toHaveURL(/\/monitoring\/one-time-check\/results\?id=[0-9a-f-]{36}$/);
  await expect(page.getByTestId('check-identifier')).toHaveText(DEMO_PLEDGED_VIN);
  const pledges = page.getByTestId('source-pledges');
  await expect(pledges).toHaveAttribute('data-outcome', 'found');
  await expect(pledges).toContainText(DEMO_PLEDGE_NOTICE);
  await expect(pledges).toContainText('Критическая');
  for (const name of VIN_SOURCE_NAMES) {
    await expect(page.getByRole('region', { name })).toBeVisible();
  }
  // The check id is in the URL, so a reload shows the same check.
  await page.reload();
  await expect(page.getByTestId('source-pledges')).toContainText(DEMO_PLEDGE_NOTICE);
  const checkNumber =
    (await page.getByRole('heading', { level: 1 }).textContent())?.replace('Проверка ', '') ?? '';
  expect(checkNumber).toMatch(/^ПР-\d{4}-\d+$/);

  await page.getByRole('link', { name: 'Открыть документ' }).click();
  await expect(page).toHaveURL(/\/monitoring\/one-time-check\/document\/[0-9a-f-]{36}$/);
  const sheet = page.getByTestId('check-document');
  await expect(sheet).toContainText(DEMO_PLEDGED_VIN);
  await expect(sheet).toContainText(checkNumber);
  await expect(sheet).toContainText('(МСК)');
  for (const name of VIN_SOURCE_NAMES) {
    await expect(sheet).toContainText(name);
  }
  // On paper only the document is printed: no app bar, no navigation, no buttons.
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('banner')).toBeHidden();
  await expect(page.getByRole('navigation')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Печать' })).toBeHidden();
  await expect(sheet).toBeVisible();
  await page.emulateMedia({ media: 'screen' });

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Скачать PDF' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  const path = await download.path();
  const text = await pdfText(path);
  expect(text).toContain(DEMO_PLEDGED_VIN);
  expect(text).toContain(checkNumber);
  for (const name of VIN_SOURCE_NAMES) {
    expect(text).toContain(name);
  }

  // The check is in the history and opens its results again.
  await page.goto('/monitoring/one-time-check/table');
  const row = page.getByTestId('check-row').filter({ hasText: checkNumber });
  await expect(row).toContainText(DEMO_PLEDGED_VIN);
  await row.getByRole('link', { name: checkNumber }).click();
  await expect(page.getByTestId('source-pledges')).toContainText(DEMO_PLEDGE_NOTICE);
});

test('a regular check run started by hand completes and its events appear', async ({ page }) => {
  // A whole regular run over the demo portfolio: minutes on a busy machine.
  test.setTimeout(240_000);
  // Whatever ran before, this run has something new to find: a VIN pledged to another creditor that
  // no other test or demo puts on monitoring joins the portfolio (a first check reports its pledge).
  // DEMO_PLEDGED_VIN would not do: the integration example watches it and a later run checks it.
  const analyst = await apiToken(DEMO_ANALYST);
  const added = await apiCall<{ added: { item: { identifier: string } }[] }>(
    analyst,
    'POST',
    '/api/v1/monitoring/regular-check/form-vin',
    { rows: [{ vin: DEMO_UNWATCHED_PLEDGED_VIN, label: 'Проверка e2e' }] },
  );
  expect(added.added.map((row) => row.item.identifier)).toEqual([DEMO_UNWATCHED_PLEDGED_VIN]);
  await signInThroughForm(page, DEMO_ANALYST);
  await page.getByRole('link', { name: 'Регулярные проверки' }).click();
  await expect(page).toHaveURL(/\/monitoring\/checks$/);
  await expect(page.getByTestId('source-row-pledges')).toContainText('Реестр залогов');

  await page.getByRole('button', { name: 'Запустить проверку' }).click();
  await expect(page.getByText('Проверка запущена')).toBeVisible();
  const run = page.getByTestId('run-row').first();
  // The list polls while the run is going; the newest run is open with its progress by source.
  await expect(run).toHaveAttribute('data-status', /^completed/, { timeout: 180_000 });
  await expect(page.getByTestId('run-source-pledges')).toContainText('Готово');
  const eventsLink = run.getByRole('link');
  await expect(eventsLink).toHaveText(/^[1-9][\d\s]*$/);

  await eventsLink.click();
  await expect(page).toHaveURL(/\/monitoring\/events\?runId=/);
  await expect(page.getByTestId('event-row').first()).toBeVisible();

  // A pledge of a portfolio vehicle to another creditor is a critical, unread event until marked read.
  await page.goto(
    `${new URL(page.url()).pathname}${new URL(page.url()).search}&type=pledge_registered_other`,
  );
  const event = page.getByTestId('event-row').first();
  await expect(event).toContainText('Залог зарегистрирован другим кредитором');
  await expect(event).toContainText('Реестр залогов');
  await expect(event).toContainText('Критическая');
  await expect(event).toHaveAttribute('data-read', 'false');
  const unread = page.getByText(/^Непрочитанных: /);
  const unreadBefore = Number((await unread.textContent())?.replace(/\D/g, ''));
  await event.getByRole('button', { name: 'Отметить прочитанным' }).click();
  await expect(event).toHaveAttribute('data-read', 'true');
  await expect(unread).toHaveText(`Непрочитанных: ${(unreadBefore - 1).toLocaleString('ru-RU')}`);
});
