import { mkdir } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { PDFParse } from 'pdf-parse';
import { typeDate } from '../support/date-field.ts';
import {
  DESKTOP,
  DOCS_SCREENSHOTS,
  DOCS_SCREENSHOTS_DIR,
  PHONE,
  saveDocScreenshot,
} from '../support/doc-screenshots.ts';
import { newVin } from '../support/identifiers.ts';
import { PLEDGE_FILE_HEADER } from '../support/pledges.ts';
import { DEMO_ANALYST, signInThroughForm } from '../support/session.ts';

/**
 * Issue #14: the uploads history, the hand-entry form of pledge notifications and the report files.
 * With DOCS_SCREENSHOTS=1 the changed screens are also saved to docs/screenshots/ (both sizes, both
 * themes) for docs/screenshots.md.
 */

const eventRow = (surname: string, vin: string) =>
  [
    'Возникновение',
    '01.03.2025',
    'ФЛ',
    surname,
    'Анна',
    '01.02.1990',
    '4511 123456',
    'ПАО Сбербанк',
    '7707083893',
    '1027700132195',
    `КД-${surname}`,
    '01.03.2025',
    vin,
    'Kia Rio',
  ].join(';');

/** Saves the screen at both sizes in both themes when asked to (DOCS_SCREENSHOTS=1). */
async function docShots(page: Page, name: string, prepare: () => Promise<void>) {
  if (!DOCS_SCREENSHOTS) {
    return;
  }
  await mkdir(DOCS_SCREENSHOTS_DIR, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    for (const [size, viewport] of [
      ['1400', DESKTOP],
      ['390', PHONE],
    ] as const) {
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      await page.setViewportSize(viewport);
      await prepare();
      await saveDocScreenshot(page, `${name}-${size}-${scheme}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(DESKTOP);
}

/** A pledge file with one bad row, checked and waiting for confirmation. */
async function uploadPledgeFile(page: Page, fileName: string) {
  const surname = `Выгрузов${Math.random().toString(36).slice(2, 7)}`;
  const csv = [
    PLEDGE_FILE_HEADER.join(';'),
    eventRow(surname, newVin()),
    eventRow(surname, 'XTA21099OY1234567'),
  ].join('\r\n');
  await page.goto('/pledges/upload-events/table');
  await page
    .getByTestId('file-input')
    .setInputFiles({ name: fileName, mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(page.getByTestId('upload-view')).toHaveAttribute('data-status', 'validated', {
    timeout: 30_000,
  });
}

test.use({ viewport: DESKTOP });

test('uploads history: a pledge file waiting for confirmation reopens, and its error file buttons are not clipped', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const fileName = `pledges-${Date.now()}.csv`;
  await signInThroughForm(page, DEMO_ANALYST);
  await uploadPledgeFile(page, fileName);

  await page.goto('/monitoring/uploads-history');
  const row = page.getByTestId('upload-row').filter({ hasText: fileName });
  await expect(row).toContainText('Проверен');

  // The error file links sit inside the table, not cut off by its scroll box, at 1400 px.
  const container = page.locator('.MuiTableContainer-root');
  const overflow = await container.evaluate((node) => node.scrollWidth - node.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const box = await container.boundingBox();
  for (const format of ['CSV', 'XLSX']) {
    const link = row.getByRole('link', { name: new RegExp(`${format}.*${fileName}`) });
    await expect(link).toBeVisible();
    const linkBox = (await link.boundingBox())!;
    expect(linkBox.x + linkBox.width).toBeLessThanOrEqual(box!.x + box!.width);
  }
  await docShots(page, 'uploads-history', async () => {
    await page.goto('/monitoring/uploads-history?kind=pledge_events');
    await expect(page.getByTestId('upload-row').first()).toBeVisible();
  });

  // The file name opens the pledge upload screen, where the check can be confirmed.
  await row.getByRole('link', { name: fileName, exact: true }).click();
  await expect(page).toHaveURL(/\/pledges\/upload-events\/table\?upload=/);
  await expect(page.getByTestId('upload-view')).toHaveAttribute('data-status', 'validated');
  await expect(page.getByRole('button', { name: 'Внести в реестр' })).toBeVisible();
});

test('pledge notification by hand: the success message is brought into view and a toast says so', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signInThroughForm(page, DEMO_ANALYST);
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    const surname = `Ручной${Math.random().toString(36).slice(2, 7)}`;
    await page.goto('/pledges/upload-events/form');
    const form = page.getByRole('form', { name: 'Уведомление о залоге' });
    const pledgor = form.getByRole('group', { name: 'Залогодатель', exact: true });
    await pledgor.getByRole('textbox', { name: 'Фамилия' }).fill(surname);
    await pledgor.getByRole('textbox', { name: 'Имя' }).fill('Пётр');
    await typeDate(pledgor, 'Дата рождения', '1985-06-05');
    await pledgor.getByRole('textbox', { name: 'Серия и номер' }).fill('4510 654321');
    const pledgee = form.getByRole('group', { name: 'Залогодержатель', exact: true });
    await pledgee.getByRole('textbox', { name: 'Наименование' }).fill('ПАО Сбербанк');
    await pledgee.getByRole('textbox', { name: 'ИНН' }).fill('7707083893');
    await pledgee.getByRole('textbox', { name: 'ОГРН' }).fill('1027700132195');
    await form.getByRole('textbox', { name: 'Номер договора' }).fill(`ДЗ-${surname}`);
    await typeDate(form, 'Дата договора', '2025-03-01');
    await form.getByRole('textbox', { name: 'VIN · ТС 1' }).fill(newVin());
    // Submitted from the bottom of the long form.
    await form.getByRole('button', { name: 'Внести в реестр' }).click();
    const saved = page.getByTestId('pledge-event-saved');
    await expect(saved).toContainText('Уведомление «Возникновение» внесено в реестр');
    await expect(saved).toBeInViewport();
    await expect(
      page.locator('.Toastify__toast').filter({ hasText: 'внесено в реестр' }).first(),
    ).toBeVisible();
  }
  await docShots(page, 'pledge-event-saved', async () => {
    await page.getByTestId('pledge-event-saved').scrollIntoViewIfNeeded();
  });
});

test('events report: the PDF is for reading, the XLSX has real dates, a frozen header and a filter', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signInThroughForm(page, DEMO_ANALYST);
  const today = new Date();
  const from = new Date(today.getTime() - 364 * 86_400_000);
  const iso = (date: Date) => date.toISOString().slice(0, 10);
  const query = new URLSearchParams({ kind: 'events', from: iso(from), to: iso(today) });

  // The signed-in cookie is enough for a download.
  const pdfResponse = await page.request.get(`/api/v1/monitoring/report?${query}&format=pdf`);
  expect(pdfResponse.status()).toBe(200);
  const rows = Number(pdfResponse.headers()['x-report-rows']);
  const parser = new PDFParse({ data: new Uint8Array(await pdfResponse.body()) });
  try {
    const { total } = await parser.getInfo();
    const text = (await parser.getText()).text;
    // At least ten demo events a page (was about five: 1,918 events on 359 pages).
    expect(total).toBeLessThanOrEqual(Math.max(1, Math.ceil(Math.min(rows, 2000) / 10)));
    expect(text).toContain('Обнаружено');
    expect(text).toContain('Объект');
    expect(text).not.toContain('Прочитано');
  } finally {
    await parser.destroy();
  }

  const xlsxResponse = await page.request.get(`/api/v1/monitoring/report?${query}&format=xlsx`);
  expect(xlsxResponse.status()).toBe(200);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await xlsxResponse.body()) as unknown as ArrayBuffer);
  const sheet = workbook.getWorksheet('События')!;
  expect(sheet.autoFilter).toBe('A1:M1');
  expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
  if (rows > 0) {
    expect(sheet.getRow(2).getCell(1).value).toBeInstanceOf(Date);
    expect(sheet.getRow(2).getCell(1).numFmt).toBe('dd.mm.yyyy hh:mm');
  }
});
