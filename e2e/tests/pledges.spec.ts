import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { typeDate } from '../support/date-field.ts';
import { newVin } from '../support/identifiers.ts';
import { PLEDGE_FILE_HEADER } from '../support/pledges.ts';
import { DEMO_ADMIN, DEMO_ANALYST, signInThroughForm } from '../support/session.ts';

test('pledge registry: a pledge by hand, a file with a bad row, one package approved by a second person, sent and exported', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const surname = `Залогов${Math.random().toString(36).slice(2, 7)}`;
  const handVin = newVin();
  const fileVins = [newVin(), newVin()];
  const fileName = `events-${Date.now()}.csv`;

  await signInThroughForm(page, DEMO_ANALYST);

  // 1. One pledge by hand, with live validation.
  await page.goto('/pledges/upload-events');
  await expect(page).toHaveURL(/\/pledges\/upload-events\/form$/);
  const form = page.getByRole('form', { name: 'Уведомление о залоге' });
  const pledgor = form.getByRole('group', { name: 'Залогодатель', exact: true });
  await pledgor.getByRole('textbox', { name: 'Фамилия' }).fill(surname);
  await pledgor.getByRole('textbox', { name: 'Имя' }).fill('Пётр');
  await typeDate(pledgor, 'Дата рождения', '1985-06-05');
  await pledgor.getByRole('textbox', { name: 'Серия и номер' }).fill('4510 654321');
  const pledgee = form.getByRole('group', { name: 'Залогодержатель', exact: true });
  await pledgee.getByRole('textbox', { name: 'Наименование' }).fill('ПАО Сбербанк');
  const inn = pledgee.getByRole('textbox', { name: 'ИНН' });
  await inn.fill('7707083890');
  await inn.blur();
  await expect(pledgee.getByText('Залогодержатель: ИНН — неверная контрольная сумма')).toBeVisible();
  await inn.fill('7707083893');
  await pledgee.getByRole('textbox', { name: 'ОГРН' }).fill('1027700132195');
  await form.getByRole('textbox', { name: 'Номер договора' }).fill(`ДЗ-${surname}`);
  await typeDate(form, 'Дата договора', '2025-03-01');
  await form.getByRole('textbox', { name: 'VIN · ТС 1' }).fill(handVin.toLowerCase());
  await form.getByRole('button', { name: 'Внести в реестр' }).click();
  await expect(page.getByTestId('pledge-event-saved')).toContainText(
    'Уведомление «Возникновение» внесено в реестр',
  );

  // 2. A file of events with one bad row: preview, the error, confirm.
  await page.getByRole('tab', { name: 'Из файла' }).click();
  await expect(page).toHaveURL(/\/pledges\/upload-events\/table$/);
  const row = (vin: string) =>
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
  const csv = [
    PLEDGE_FILE_HEADER.join(';'),
    row(fileVins[0]!),
    row(fileVins[1]!),
    row('XTA21099OY1234567'),
  ].join('\r\n');
  await page
    .getByTestId('file-input')
    .setInputFiles({ name: fileName, mimeType: 'text/csv', buffer: Buffer.from(csv) });
  const view = page.getByTestId('upload-view');
  await expect(view).toHaveAttribute('data-status', 'validated', { timeout: 30_000 });
  await expect(page.getByTestId('upload-counts')).toContainText('к внесению: 2');
  await expect(page.getByTestId('rejected-rows')).toContainText('недопустимые символы I, O, Q');
  await page.getByRole('button', { name: 'Внести в реестр' }).click();
  await expect(view).toHaveAttribute('data-status', 'done_with_errors', { timeout: 30_000 });

  // 3. Both in the registry.
  await page.getByRole('link', { name: 'Открыть реестр' }).click();
  await expect(page).toHaveURL(/\/pledges\/events-registry\/table$/);
  await page.getByRole('textbox', { name: 'Залогодатель' }).fill(surname);
  const rows = page.getByTestId('pledge-event-row');
  await expect(rows).toHaveCount(2);
  const handRow = rows.filter({ hasText: handVin });
  const fileRow = rows.filter({ hasText: fileVins[0]! });
  await expect(handRow).toContainText('Не в пакете');
  await expect(fileRow).toContainText('Черновик');
  await expect(fileRow).toContainText('и ещё 1');

  // 4. The hand-entered event joins the file's package.
  await handRow.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Добавить в пакет…' }).click();
  await page.getByRole('combobox', { name: 'Пакет (черновик)' }).click();
  await page.getByRole('option', { name: new RegExp(fileName) }).click();
  await page.getByRole('button', { name: 'Добавить', exact: true }).click();
  await expect(handRow).toContainText('Черновик');

  // 5. Maker-checker: the analyst made the package, so only another person can approve it.
  await page.getByRole('tab', { name: 'Пакеты' }).click();
  const card = page.getByRole('region', { name: `Файл «${fileName}»` });
  await expect(card).toContainText('событий: 2');
  await expect(card.getByRole('button', { name: 'Одобрить' })).toBeDisabled();
  await expect(card.getByTestId('approve-blocked-reason')).toContainText('Вы создали этот пакет');

  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await signInThroughForm(adminPage, DEMO_ADMIN);
  await adminPage.goto('/pledges/events-registry/packages');
  const adminCard = adminPage.getByRole('region', { name: `Файл «${fileName}»` });
  await expect(adminCard.getByRole('button', { name: 'Одобрить' })).toBeEnabled();
  await expect(adminCard.getByTestId('approve-blocked-reason')).toHaveCount(0);
  await adminCard.getByRole('button', { name: 'Одобрить' }).click();
  await adminPage
    .getByRole('dialog', { name: 'Одобрить пакет?' })
    .getByRole('button', { name: 'Одобрить' })
    .click();
  await expect(adminCard.getByTestId('package-status')).toHaveText('Готов к отправке');
  await adminContext.close();

  await page.reload();
  await card.getByRole('button', { name: 'Отметить отправку' }).click();
  await page
    .getByRole('dialog', { name: 'Отметить отправку пакета?' })
    .getByRole('button', { name: 'Отметить отправку' })
    .click();
  await expect(card.getByTestId('package-status')).toHaveText('Отправлен');
  await expect(card).toContainText('одобрил Анна Администраторова');

  // 6. Export: the JSON to submit, with both notifications.
  const downloadPromise = page.waitForEvent('download');
  await card.getByRole('link', { name: 'Выгрузка JSON' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^пакет-\d+\.json$/);
  const exported = JSON.parse(await readFile((await download.path())!, 'utf8'));
  expect(exported.package.status).toBe('sent');
  expect(exported.notifications).toHaveLength(2);
  const vins = exported.notifications.flatMap((n: { property: { vin: string }[] }) =>
    n.property.map((p) => p.vin),
  );
  expect(vins.sort()).toEqual([handVin, ...fileVins].sort());
});
