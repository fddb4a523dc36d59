import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { PDFParse } from 'pdf-parse';
import { ensureEvents } from '../support/events.ts';
import { DEMO_ANALYST, signInThroughForm } from '../support/session.ts';

/** The total a list's pager shows: «1–25 из 1 708». */
async function pagerTotal(page: Page): Promise<number> {
  const text = (await page.locator('.MuiTablePagination-displayedRows').first().textContent()) ?? '';
  const match = /(?:из|of)\s*(?:более\s*)?([\d\s\u00a0\u202f]+)$/.exec(text.trim());
  return Number((match?.[1] ?? '').replace(/\D/g, ''));
}

async function downloadReport(page: Page, format: 'XLSX' | 'CSV' | 'PDF') {
  await page.getByRole('radio', { name: new RegExp(format) }).check();
  const downloading = page.waitForEvent('download');
  await page.getByTestId('report-download').click();
  const download = await downloading;
  const path = await download.path();
  return { name: download.suggestedFilename(), bytes: await readFile(path) };
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await ensureEvents();
});

test('statistics for 30 days draws charts from the demo data', async ({ page }) => {
  await signInThroughForm(page, DEMO_ANALYST);
  await page.getByRole('link', { name: 'Статистика' }).click();
  await expect(page).toHaveURL(/\/monitoring\/statistics/);
  await expect(page.getByRole('button', { name: '30 дней' })).toHaveAttribute('aria-pressed', 'true');

  const events = page.getByTestId('chart-events');
  await expect(events.locator('.recharts-wrapper > svg.recharts-surface')).toBeVisible();
  // Bars of the stacked events chart are SVG paths; the totals beside the chart are above zero.
  await expect.poll(() => events.locator('path.recharts-rectangle').count()).toBeGreaterThan(0);
  expect(Number(await page.getByTestId('total-events').getAttribute('data-value'))).toBeGreaterThan(0);

  const portfolio = page.getByTestId('chart-portfolio');
  await expect(portfolio.locator('path.recharts-area-area')).toBeVisible();
  expect(Number(await page.getByTestId('total-portfolio').getAttribute('data-value'))).toBeGreaterThan(0);
  expect(Number(await page.getByTestId('total-check-runs').getAttribute('data-value'))).toBeGreaterThan(0);
  await expect(page.getByTestId('chart-checks').locator('path.recharts-rectangle').first()).toBeAttached();

  // Chart data as CSV and a chart as PNG.
  const csvDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Данные CSV' }).click();
  const csv = await readFile(await (await csvDownload).path());
  expect(csv.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  expect(csv.toString('utf8')).toContain('Начало интервала;Конец интервала');
  const pngDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Скачать график «События по типам» в PNG' }).click();
  const png = await readFile(await (await pngDownload).path());
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');

  // Grouping by week keeps the totals.
  const total = await page.getByTestId('total-events').getAttribute('data-value');
  await page.getByRole('button', { name: 'Недели' }).click();
  await expect(page).toHaveURL(/grouping=week/);
  await expect(page.getByTestId('total-events')).toHaveAttribute('data-value', total!);
});

test('downloads the events report as XLSX, CSV (UTF-8 and Windows-1251) and PDF', async ({ page }) => {
  await signInThroughForm(page, DEMO_ANALYST);
  await page.goto('/monitoring/report');
  await expect(page.getByRole('radio', { name: /События за период/ })).toBeChecked();

  const xlsx = await downloadReport(page, 'XLSX');
  expect(xlsx.name).toMatch(/^События \d\d\.\d\d\.\d{4}–\d\d\.\d\d\.\d{4}\.xlsx$/);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(xlsx.bytes as unknown as ArrayBuffer);
  const sheet = workbook.getWorksheet('События')!;
  expect(sheet.getRow(1).getCell(1).value).toBe('Обнаружено (МСК)');
  expect(sheet.actualRowCount).toBeGreaterThan(1);
  // A real Excel date (the Moscow wall clock), shown as «ДД.ММ.ГГГГ ЧЧ:ММ».
  expect(sheet.getRow(2).getCell(1).value).toBeInstanceOf(Date);
  expect(sheet.getRow(2).getCell(1).numFmt).toBe('dd.mm.yyyy hh:mm');

  const csv = await downloadReport(page, 'CSV');
  expect(csv.name).toMatch(/\.csv$/);
  expect([...csv.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = csv.bytes.subarray(3).toString('utf8').trim().split('\r\n');
  expect(lines[0]).toMatch(/^Обнаружено \(МСК\);Событие;Важность;Источник/);
  expect(lines.length).toBe(sheet.actualRowCount);

  await page.getByLabel('Кодировка CSV').click();
  await page.getByRole('option', { name: 'Windows-1251' }).click();
  const cp1251 = await downloadReport(page, 'CSV');
  expect(cp1251.bytes[0]).toBe(0xce);
  expect(new TextDecoder('windows-1251').decode(cp1251.bytes)).toContain('Обнаружено (МСК);Событие');

  const pdf = await downloadReport(page, 'PDF');
  expect(pdf.name).toMatch(/\.pdf$/);
  const parser = new PDFParse({ data: new Uint8Array(pdf.bytes) });
  try {
    const text = (await parser.getText()).text;
    expect(text).toContain('События за период');
    expect(text).toContain('Обнаружено');
  } finally {
    await parser.destroy();
  }

  // The portfolio report, for the other kind of rows.
  await page.getByRole('radio', { name: /Портфель с текущими находками/ }).check();
  const portfolio = await downloadReport(page, 'XLSX');
  expect(portfolio.name).toMatch(/^Портфель на \d\d\.\d\d\.\d{4}\.xlsx$/);
});

test('the dashboard numbers equal the lists they link to', async ({ page }) => {
  await signInThroughForm(page, DEMO_ANALYST);
  await expect(page.getByRole('heading', { name: 'Главная', level: 1 })).toBeVisible();
  const unread = page.getByTestId('dashboard-unread-total');
  await expect(unread).toBeVisible();
  const total = Number(await unread.getAttribute('data-value'));
  expect(total).toBeGreaterThan(0);
  await unread.click();
  await expect(page).toHaveURL(/\/monitoring\/events\?read=false$/);
  await expect.poll(() => pagerTotal(page)).toBe(total);

  // One type-and-severity cell.
  await page.goto('/');
  const typed = page.locator('table [data-testid^="dashboard-unread-"]').first();
  await expect(typed).toBeVisible();
  const typedCount = Number((await typed.textContent())?.replace(/\D/g, ''));
  await typed.click();
  await expect(page).toHaveURL(/\/monitoring\/events\?type=[a-z_]+&severity=[a-z]+&read=false$/);
  await expect.poll(() => pagerTotal(page)).toBe(typedCount);

  // Items by kind and status.
  await page.goto('/');
  const active = page.getByTestId('dashboard-items-vin-active');
  const activeCount = Number((await active.textContent())?.replace(/\D/g, ''));
  await active.click();
  await expect(page).toHaveURL(/\/monitoring\/items\?entity=vin&status=active$/);
  await expect.poll(() => pagerTotal(page)).toBe(activeCount);

  // The quick check box opens the one-time check form filled in.
  await page.goto('/');
  await page.getByTestId('dashboard-quick-check').fill('XTA21099043456789');
  await page.getByRole('button', { name: 'Проверить' }).click();
  await expect(page).toHaveURL(/\/monitoring\/one-time-check\?vin=XTA21099043456789$/);
  await expect(page.getByRole('textbox', { name: 'VIN' })).toHaveValue('XTA21099043456789');
});
