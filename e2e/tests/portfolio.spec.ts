import { expect, type Page, test } from '@playwright/test';
import { isValidInn } from '@pledgewatch/identifiers';
import iconv from 'iconv-lite';
import { newVin } from '../support/identifiers.ts';
import { DEMO_ANALYST, signInThroughForm } from '../support/session.ts';

/** A valid 10-digit INN of a company. */
function newInn(): string {
  for (;;) {
    const body = String(Math.floor(1_000_000_000 + Math.random() * 8_999_999_999)).slice(0, 9);
    for (let digit = 0; digit <= 9; digit++) {
      if (isValidInn(`${body}${digit}`)) {
        return `${body}${digit}`;
      }
    }
  }
}

async function addOneVinByHand(page: Page, vin: string): Promise<void> {
  await page.goto('/monitoring/upload');
  await expect(page).toHaveURL(/\/monitoring\/upload\/form$/);
  const form = page.getByRole('form', { name: 'Добавить VIN' });
  const vinField = form.getByRole('textbox', { name: 'VIN' });

  // Live validation: a Latin O is refused while typing, with the Russian rule.
  await vinField.fill(`${vin.slice(0, 16)}O`);
  await expect(form.getByText(/недопустимые символы I, O, Q/)).toBeVisible();

  // Lower case is accepted and normalised; the decoding appears as soon as the VIN is valid.
  await vinField.fill(vin.toLowerCase());
  const preview = page.getByTestId('vin-preview');
  await expect(preview).toContainText(`Расшифровка ${vin}`);
  await expect(preview).toContainText('2024');
  await expect(preview).toContainText('совпадает');
  await form.getByRole('textbox', { name: 'Метка' }).fill('Lada 2109, e2e');
  await form.getByRole('textbox', { name: 'Номер договора' }).fill('КД-E2E/1');
  await form.getByRole('button', { name: 'Поставить на мониторинг' }).click();
  await expect(page.getByText('Объект поставлен на мониторинг')).toBeVisible();
  await expect(page.getByTestId('add-result')).toContainText('Добавлено: 1');
  await expect(vinField).toHaveValue('');
}

test('portfolio: hand entry, pasted rows, a cp1251 file with a bad row, history and the error file', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const handVin = newVin();
  const pastedVins = [newVin(), newVin()];
  const pastedInn = newInn();
  const fileVins = [newVin(), newVin(), newVin()];
  const badVin = 'XTA21099OY1234567';

  await signInThroughForm(page, DEMO_ANALYST);

  // 1. One VIN by hand.
  await addOneVinByHand(page, handVin);

  // 2. Three rows pasted from Excel into the grid; the INN is recognised as a document.
  const pasted = [
    `${pastedVins[0]}\tKia Rio\tКД-E2E/2\tИванов Иван Иванович`,
    `${pastedVins[1]}\tHyundai Solaris\tКД-E2E/3\tПетров Пётр Петрович`,
    `${pastedInn}\tООО «Ромашка»\tКД-E2E/4\t`,
  ].join('\n');
  await page.getByTestId('paste-area').fill(pasted);
  await page.getByRole('button', { name: 'Разобрать' }).click();
  const gridRows = page.getByTestId('grid-row');
  await expect(gridRows).toHaveCount(3);
  await expect(gridRows.nth(2).getByRole('combobox', { name: 'Тип, строка 3' })).toHaveText('ИНН');
  await expect(page.locator('[data-testid="grid-row"][data-state="error"]')).toHaveCount(0);
  await page.getByRole('button', { name: 'Поставить на мониторинг: 3 строки' }).click();
  const gridResult = page.getByTestId('add-result').last();
  await expect(gridResult).toContainText('Добавлено: 3');
  await expect(gridResult).toContainText('Отклонено: 0');
  await expect(gridRows).toHaveCount(0);

  // The hand-entered VIN is in the portfolio, found by search.
  await page.goto('/monitoring/items');
  await page.getByRole('searchbox', { name: 'Поиск' }).fill(handVin.slice(-8));
  await expect(page).toHaveURL(new RegExp(`search=${handVin.slice(-8)}`));
  await expect(page.getByTestId('item-row')).toHaveCount(1);
  await expect(page.getByTestId('item-row')).toContainText(handVin);
  await expect(page.getByTestId('item-row')).toContainText('Lada 2109, e2e');
  // The time columns' headers take at most two lines (three pushed every row of the list down).
  for (const name of ['Добавлен (МСК)', 'Последняя проверка (МСК)']) {
    const lines = await page.getByRole('columnheader', { name }).evaluate((cell) => {
      const label = cell.querySelector('.MuiTableSortLabel-root') ?? cell;
      return Math.round(
        label.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(cell).lineHeight),
      );
    });
    expect(lines, name).toBeLessThanOrEqual(2);
  }

  // 3. A Windows-1251 CSV with a Russian header and one bad row.
  const csv = [
    'VIN;Метка;Договор;Залогодатель',
    `${fileVins[0]};Лада Веста, серебристый;КД-ФАЙЛ/1;Сидоров Сидор Сидорович`,
    `${fileVins[1]};Лада Гранта;КД-ФАЙЛ/2;Кузнецова Анна Сергеевна`,
    `${badVin};Ошибочная строка;КД-ФАЙЛ/3;Ошибкин Олег`,
    `${fileVins[2]};Лада Нива;КД-ФАЙЛ/4;ООО «Залог»`,
  ].join('\r\n');
  const fileName = `портфель-e2e-${Date.now()}.csv`;

  await page.goto('/monitoring/upload/table');
  // Hold the request a moment so the sending step (with its progress bar) is visible.
  await page.route('**/api/v1/monitoring/uploads?*', async (route) => {
    if (route.request().method() === 'POST') {
      // Long enough that a loaded machine still sees the sending step before it ends.
      await new Promise((resolve) => setTimeout(resolve, 3000));
    }
    await route.continue();
  });
  await page.getByTestId('file-input').setInputFiles({
    name: fileName,
    mimeType: 'text/csv',
    buffer: iconv.encode(csv, 'win1251'),
  });
  await expect(
    page.getByTestId('upload-sending').getByRole('progressbar', { name: 'Отправляем файл' }),
  ).toBeVisible();

  // Checked on the server, then the preview waits for confirmation.
  const view = page.getByTestId('upload-view');
  await expect(view).toHaveAttribute('data-status', 'validated', { timeout: 30_000 });
  await expect(page).toHaveURL(/\/monitoring\/upload\/table\?upload=/);
  await expect(view).toContainText(fileName);
  await expect(view).toContainText('windows-1251');
  const counts = page.getByTestId('upload-counts');
  await expect(counts.locator('[data-count="rows"]')).toContainText('4');
  await expect(counts.locator('[data-count="accepted"]')).toContainText('3');
  await expect(counts.locator('[data-count="rejected"]')).toContainText('1');
  await expect(page.getByTestId('preview-rows')).toContainText(fileVins[0]!);
  await expect(page.getByTestId('preview-rows')).toContainText('Лада Веста, серебристый');
  const rejected = page.getByTestId('rejected-file-rows');
  await expect(rejected).toContainText(badVin);
  // The header is row 1, so the third data row is row 4 of the file.
  await expect(rejected.getByRole('row').nth(1).getByRole('cell').first()).toHaveText('4');
  await expect(rejected).toContainText('недопустимые символы I, O, Q');

  await page.getByRole('button', { name: 'Подтвердить загрузку' }).click();
  await expect(view).toHaveAttribute('data-status', 'done_with_errors', { timeout: 30_000 });
  await expect(page.getByTestId('upload-result')).toBeVisible();
  await expect(counts.locator('[data-count="accepted"]')).toContainText('3');
  await expect(counts.locator('[data-count="rejected"]')).toContainText('1');

  // 4. The upload is in the history, with its counts and the error-file links.
  await page.goto('/monitoring/uploads-history');
  const historyRow = page.getByTestId('upload-row').filter({ hasText: fileName });
  await expect(historyRow).toHaveCount(1);
  await expect(historyRow.getByTestId('upload-status')).toHaveText('Загружен с ошибками');
  await expect(historyRow).toContainText('Иван Аналитиков');
  await expect(historyRow.getByRole('cell').nth(6)).toHaveText('1');

  // 5. The error file holds exactly the refused row, with its reason, ready to fix and upload again.
  const downloadPromise = page.waitForEvent('download');
  await historyRow.getByRole('link', { name: `Файл ошибок CSV: ${fileName}` }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) {
    chunks.push(chunk as Buffer);
  }
  const content = Buffer.concat(chunks).toString('utf8');
  const lines = content
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/);
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(badVin);
  expect(lines[1]).toContain('Ошибочная строка');
  expect(lines[1]).toMatch(/недопустимые символы I, O, Q/);
  for (const vin of fileVins) {
    expect(content).not.toContain(vin);
  }
});
