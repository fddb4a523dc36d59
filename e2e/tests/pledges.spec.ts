import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { typeDate } from '../support/date-field.ts';
import { newVin } from '../support/identifiers.ts';
import { PLEDGE_FILE_HEADER } from '../support/pledges.ts';
import { apiCall, apiToken, DEMO_ADMIN, DEMO_ANALYST, signInThroughForm } from '../support/session.ts';

test('pledge registry: a pledge by hand and a file, packaged; an admin approves, exports the registry XML, marks it sent and uploads the answer; the numbers show; the rejected notification is corrected (the pledgor’s passport) and packaged again', async ({
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
  // The registry requires a description of every vehicle (the XML's Description).
  await form.getByRole('textbox', { name: 'Описание (марка, модель)' }).fill('Kia Rio, 2020 г.в.');
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

  // 6. The admin exports the registry's XML: a ZIP with one <NotificationId>.xml per notification.
  const token = await apiToken(DEMO_ADMIN);
  const packageId = await adminCard.getAttribute('data-package-id');
  const listed = await apiCall<{
    items: { id: string; notificationId: string; vehicles: { vin: string }[] }[];
  }>(token, 'GET', `/api/v1/pledges/events?packageId=${packageId}`);
  expect(listed.items).toHaveLength(2);
  const downloadPromise = adminPage.waitForEvent('download');
  await adminCard.getByRole('button', { name: 'Файлы для реестра (XML)' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^пакет-\d+-реестр\.zip$/);
  const zip = await readFile((await download.path())!);
  // The ZIP's directory keeps the file names uncompressed.
  for (const event of listed.items) {
    expect(zip.toString('latin1')).toContain(`${event.notificationId}.xml`);
  }

  // 7. Marked sent, then the registry's answer: a certificate for the file's notification, a
  // rejection of the hand-entered one (the pledgor's passport).
  await adminCard.getByRole('button', { name: 'Отметить отправку' }).click();
  await adminPage
    .getByRole('dialog', { name: 'Отметить отправку пакета?' })
    .getByRole('button', { name: 'Отметить отправку' })
    .click();
  await expect(adminCard.getByTestId('package-status')).toHaveText('Отправлен');
  const fileEvent = listed.items.find((e) => e.vehicles.some((v) => v.vin === fileVins[0]))!;
  const handEvent = listed.items.find((e) => e.vehicles.some((v) => v.vin === handVin))!;
  const number = `2025-012-${String(Date.now()).slice(-6)}-634`;
  const answer = `<?xml version="1.0" encoding="UTF-8"?>
<Results xmlns:r="http://fciit.ru/eisn/ruzdi/types/2.3">
  <r:RegistrationCertificate version="2.3">
    <r:RegistrationCertificateId>${crypto.randomUUID()}</r:RegistrationCertificateId>
    <r:NotificationId>${fileEvent.notificationId}</r:NotificationId>
    <r:RegistrationCertificateData>
      <r:NotificationReferenceNumber>${number}</r:NotificationReferenceNumber>
      <r:RegistrationTime>2025-11-24T11:04:56</r:RegistrationTime>
    </r:RegistrationCertificateData>
  </r:RegistrationCertificate>
  <r:RegistrationRejectMessage version="2.3">
    <r:RegistrationRejectId>${crypto.randomUUID()}</r:RegistrationRejectId>
    <r:NotificationId>${handEvent.notificationId}</r:NotificationId>
    <r:RejectReason>Неверные серия и номер паспорта залогодателя</r:RejectReason>
  </r:RegistrationRejectMessage>
</Results>`;
  await adminCard
    .getByTestId('registry-results-input')
    .setInputFiles({ name: 'ответ-реестра.xml', mimeType: 'application/xml', buffer: Buffer.from(answer) });
  await expect(adminCard).toContainText('с номерами: 1 из 2');
  await expect(adminCard.getByTestId('package-status')).toHaveText('Отправлен');
  await adminContext.close();

  // 8. The registry shows the number; the rejected notification is corrected and packaged again.
  await page.getByRole('tab', { name: 'События', exact: true }).click();
  await page.getByRole('textbox', { name: 'Залогодатель' }).fill(surname);
  await expect(fileRow).toContainText(number);
  await expect(handRow).toContainText('Отказ реестра');
  await expect(handRow.getByTestId('rejection-reason')).toContainText('Неверные серия и номер паспорта');
  await handRow.click();
  await page.getByRole('button', { name: 'Исправить' }).click();
  const correction = page.getByRole('dialog', { name: 'Исправить уведомление' });
  await correction.getByRole('textbox', { name: 'Залогодатель: серия и номер' }).fill('4510 654322');
  await correction.getByRole('button', { name: 'Сохранить исправление' }).click();
  await expect(correction).toBeHidden();
  await page.keyboard.press('Escape');
  await expect(handRow).toContainText('Не в пакете');
  await handRow.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Создать пакет' }).click();
  await expect(handRow).toContainText('Черновик');
});
