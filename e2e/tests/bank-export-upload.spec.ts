import { expect, type Page, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { DESKTOP, PHONE } from '../support/doc-screenshots.ts';
import { newVin } from '../support/identifiers.ts';
import { DEMO_ANALYST, signInThroughForm } from '../support/session.ts';

/**
 * Issue #25: the portfolio file a bank's core system exports, uploaded as it is — a title and a
 * branch line above the header, merged cells, its own column names, a totals line — and the
 * mapping step when the columns are not known.
 */

const HEADER = ['№ п/п', 'VIN (идентификационный номер)', 'Номер договора залога', 'ФИО залогодателя'];

function bankRows(vins: string[], contracts: string[]): string[][] {
  return [
    ['Реестр залогового имущества на 01.03.2026', '', '', ''],
    ['Филиал «Казанский»', '', '', ''],
    ['', '', '', ''],
    HEADER,
    ...vins.map((vin, i) => [String(i + 1), vin, contracts[i]!, `Залогодатель ${i + 1}`]),
    [`Итого: ${vins.length} единицы`, '', '', ''],
  ];
}

async function bankXlsx(vins: string[], contracts: string[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Портфель');
  for (const row of bankRows(vins, contracts)) {
    sheet.addRow(row);
  }
  sheet.mergeCells('A1:D1');
  sheet.mergeCells('A2:D2');
  sheet.mergeCells(`A${vins.length + 5}:D${vins.length + 5}`);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

async function uploadAndConfirm(page: Page, file: { name: string; mimeType: string; buffer: Buffer }) {
  await page.goto('/monitoring/upload/table');
  await page.getByTestId('file-input').setInputFiles(file);
  const view = page.getByTestId('upload-view');
  await expect(view).toHaveAttribute('data-status', 'validated', { timeout: 60_000 });
  const summary = page.getByTestId('upload-header-summary');
  await expect(summary.getByTestId('header-row')).toHaveText(
    'Строки 1–3 пропущены: заголовок найден в строке 4',
  );
  const mapping = summary.getByTestId('column-mapping');
  await expect(mapping).toContainText('№ п/п → не загружается');
  await expect(mapping).toContainText('VIN (идентификационный номер) → VIN');
  await expect(mapping).toContainText('Номер договора залога → Номер договора');
  await expect(mapping).toContainText('ФИО залогодателя → Залогодатель');
  await expect(mapping.getByTestId('column-mark')).toHaveCount(3);
  await expect(summary.getByTestId('skipped-rows')).toContainText('строка 9: «Итого: 4 единицы»');
  const counts = page.getByTestId('upload-counts');
  await expect(counts.locator('[data-count="rows"]')).toContainText('4');
  await expect(counts.locator('[data-count="rejected"]')).toContainText('0');
  await page.getByRole('button', { name: 'Подтвердить загрузку' }).click();
  await expect(view).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
}

/** Each item is in the portfolio with its own contract number: found by the number, it shows its VIN. */
async function expectItems(page: Page, vins: string[], contracts: string[]) {
  for (const [i, vin] of vins.entries()) {
    await page.goto(`/monitoring/items?search=${encodeURIComponent(contracts[i]!)}`);
    const rows = page.getByTestId('item-row');
    await expect(rows).toHaveCount(1, { timeout: 15_000 });
    await expect(rows).toContainText(vin);
  }
}

test.use({ viewport: DESKTOP });

test('a bank export as XLSX (title, branch line, merged cells, own column names, totals) is imported with every contract number', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const stamp = Date.now().toString(36).toUpperCase();
  const vins = [newVin(), newVin(), newVin(), newVin()];
  const contracts = vins.map((_, i) => `ДЗ-${stamp}-X${i + 1}`);
  await signInThroughForm(page, DEMO_ANALYST);
  await uploadAndConfirm(page, {
    name: `реестр-${stamp}.xlsx`,
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: await bankXlsx(vins, contracts),
  });
  await expectItems(page, vins, contracts);
});

test('the same export as a Windows-1251 CSV is imported the same way', async ({ page }) => {
  test.setTimeout(180_000);
  const stamp = Date.now().toString(36).toUpperCase();
  const vins = [newVin(), newVin(), newVin(), newVin()];
  const contracts = vins.map((_, i) => `ДЗ-${stamp}-C${i + 1}`);
  const csv = bankRows(vins, contracts)
    .map((row) => row.join(';'))
    .join('\r\n');
  await signInThroughForm(page, DEMO_ANALYST);
  await uploadAndConfirm(page, {
    name: `реестр-${stamp}.csv`,
    mimeType: 'text/csv',
    buffer: iconv.encode(csv, 'win1251'),
  });
  await expectItems(page, vins, contracts);
});

test('on a phone, the mapping step asks for the unknown columns and the check goes on', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize(PHONE);
  const stamp = Date.now().toString(36).toUpperCase();
  const vins = [newVin(), newVin()];
  // The header of another system, never mapped before in this run.
  const header = `Идент. ${stamp};Договор;Клиент`;
  const csv = [header, ...vins.map((vin, i) => `${vin};ДЗ-${stamp}-M${i};Клиент ${i}`)].join('\r\n');
  await signInThroughForm(page, DEMO_ANALYST);
  await page.goto('/monitoring/upload/table');
  await page
    .getByTestId('file-input')
    .setInputFiles({ name: `other-${stamp}.csv`, mimeType: 'text/csv', buffer: Buffer.from(csv) });
  const view = page.getByTestId('upload-view');
  await expect(view).toHaveAttribute('data-status', 'needs_mapping', { timeout: 60_000 });
  await expect(view).toContainText('Не найден столбец «VIN» или «Номер документа»');
  const cards = page.getByTestId('mapping-column');
  await expect(cards).toHaveCount(3);
  await expect(cards.first()).toContainText(vins[0]!);
  // One card per column, nothing wider than the phone.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);

  // Without an identifier the answer is refused with the reason, and nothing moves.
  await page.getByRole('button', { name: 'Продолжить проверку' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Не выбран столбец «VIN» или «Номер документа»' }),
  ).toBeVisible();
  await expect(view).toHaveAttribute('data-status', 'needs_mapping');

  await cards.first().getByRole('combobox').click();
  await page.getByRole('option', { name: 'VIN — идентификатор' }).click();
  await cards.nth(2).getByRole('combobox').click();
  await page.getByRole('option', { name: 'Залогодатель' }).click();
  await page.getByRole('button', { name: 'Продолжить проверку' }).click();
  await expect(view).toHaveAttribute('data-status', 'validated', { timeout: 60_000 });
  await expect(page.getByTestId('column-mapping')).toContainText(`Идент. ${stamp} → VIN`);
  await expect(page.getByTestId('column-mapping')).toContainText('Клиент → Залогодатель');
  await expect(page.getByTestId('upload-counts').locator('[data-count="accepted"]')).toContainText('2');
});
