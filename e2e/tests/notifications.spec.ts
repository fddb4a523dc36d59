import { expect, test } from '@playwright/test';
import { waitForMail } from '../support/mail.ts';
import { apiCall, apiToken, DEMO_ADMIN, DEMO_ANALYST, signInThroughForm } from '../support/session.ts';
import { E2E_APP_URL } from '../support/stack.ts';

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

test('an admin creates an e-mail rule, sends a test that arrives over SMTP and shows in the log', async ({
  page,
}) => {
  const suffix = unique();
  const name = `Риски e2e ${suffix}`;
  const address = `notify-${suffix}@demo.pledgewatch.ru`;
  await signInThroughForm(page, DEMO_ADMIN);
  await page.goto('/monitoring/notifications');
  await expect(page.getByRole('heading', { name: 'Уведомления', level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'Новое правило' }).click();
  const dialog = page.getByRole('dialog', { name: 'Новое правило уведомлений' });
  await dialog.getByLabel('Название правила').fill(name);
  // The other methods' fields come from methods-additional.
  await dialog.getByRole('combobox', { name: 'Способ' }).click();
  await page.getByRole('option', { name: 'Вебхук (HTTP POST)' }).click();
  await dialog.getByLabel('Адрес (URL)').fill('ftp://bank.ru/hook');
  await expect(dialog.getByText('Введите адрес, начинающийся с https:// или http://')).toBeVisible();
  await expect(dialog.getByLabel('Секрет подписи')).toBeVisible();
  await page.screenshot({ path: 'test-results/notifications-webhook-form.png' });
  await dialog.getByRole('combobox', { name: 'Способ' }).click();
  await page.getByRole('option', { name: 'Электронная почта' }).click();
  // Validation is live, with the contract's Russian messages.
  await dialog.getByLabel('E-mail получателя 1').fill('не адрес');
  await expect(dialog.getByText('Введите корректный адрес электронной почты')).toBeVisible();
  await dialog.getByLabel('E-mail получателя 1').fill(address);
  await expect(dialog.getByText('Введите корректный адрес электронной почты')).toBeHidden();
  await dialog.getByRole('button', { name: 'Создать правило' }).click();
  await expect(dialog).toBeHidden();

  const row = page.getByTestId('notification-rule-row').filter({ hasText: name });
  await expect(row).toContainText(address);
  await expect(row).toContainText('Сразу по каждому событию');
  await row.getByRole('button', { name: 'Отправить тест' }).click();
  await expect(page.getByText('Тестовое уведомление поставлено в очередь')).toBeVisible();

  const mail = await waitForMail(address, /^Тестовое уведомление/);
  expect(mail.subject).toBe(`Тестовое уведомление «${name}» — Pledgewatch`);
  expect(mail.text).toContain('Наложено ограничение');
  expect(mail.text).toContain(`${E2E_APP_URL}/monitoring/items?`);

  // The log follows the delivery until it is sent.
  const delivery = page.getByTestId('delivery-row').filter({ hasText: name });
  await expect(delivery).toContainText('Тестовое уведомление');
  await expect(delivery).toContainText(address);
  await expect(delivery).toContainText('Доставлено', { timeout: 15_000 });
  await expect(delivery).toContainText('1 из 6');
  await page.screenshot({ path: 'test-results/notifications-admin.png', fullPage: true });

  // Switching the rule off and deleting it asks first.
  await row.getByLabel(`Включить или отключить правило «${name}»`).click();
  await expect(page.getByText('Правило отключено')).toBeVisible();
  await row.getByRole('button', { name: `Удалить: ${name}` }).click();
  await page
    .getByRole('dialog', { name: 'Удалить правило?' })
    .getByRole('button', { name: 'Удалить' })
    .click();
  await expect(row).toBeHidden();
  // The delivery stays in the log after its rule is gone.
  await expect(delivery).toBeVisible();
});

test('a webhook to an internal address is refused on its field, before anything is sent', async ({
  page,
}) => {
  await signInThroughForm(page, DEMO_ADMIN);
  await page.goto('/monitoring/notifications');
  await page.getByRole('button', { name: 'Новое правило' }).click();
  const dialog = page.getByRole('dialog', { name: 'Новое правило уведомлений' });
  await dialog.getByLabel('Название правила').fill(`Метаданные e2e ${unique()}`);
  await dialog.getByRole('combobox', { name: 'Способ' }).click();
  await page.getByRole('option', { name: 'Вебхук (HTTP POST)' }).click();
  await dialog.getByLabel('Адрес (URL)').fill('http://169.254.169.254/latest/meta-data/');
  await dialog.getByLabel('Секрет подписи').fill('e2e-secret-0123456789');
  await dialog.getByRole('button', { name: 'Создать правило' }).click();
  await expect(
    dialog.getByText('Адрес указывает на внутреннюю сеть (169.254.169.254). Такие адреса запрещены'),
  ).toBeVisible();
  await expect(dialog).toBeVisible();
  await page.screenshot({ path: 'test-results/notifications-webhook-refused.png' });
});

test('an analyst sees the rules and the log read-only', async ({ page }) => {
  const admin = await apiToken(DEMO_ADMIN);
  const name = `Вебхук e2e ${unique()}`;
  await apiCall(admin, 'POST', '/api/v1/monitoring/notifications/settings', {
    name,
    // Switched off (and a host that does not resolve): later tests' check runs send it nothing.
    enabled: false,
    method: 'webhook',
    config: { url: 'https://hooks.bank.example/hooks', secret: 'e2e-secret-0123456789' },
  });
  await signInThroughForm(page, DEMO_ANALYST);
  await page.goto('/monitoring/notifications');
  await expect(page.getByText('Правила уведомлений меняет администратор организации')).toBeVisible();
  const row = page.getByTestId('notification-rule-row').filter({ hasText: name });
  await expect(row).toContainText('https://hooks.bank.example/hooks');
  await expect(row).toContainText('Отключено');
  await expect(page.getByRole('button', { name: 'Новое правило' })).toHaveCount(0);
  await expect(row.getByRole('button')).toHaveCount(0);
  await expect(page.getByText('e2e-secret-0123456789')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/notifications-analyst.png', fullPage: true });
});

/**
 * The whole path: a demo vehicle appears in the wanted dataset, a check run finds it, the rule mails
 * the change (the checks engine calls notifyEvents in the transaction that inserts the events).
 */
test('an event found by a check run is mailed with the change and logged', async ({ page }) => {
  // An import and a whole regular run over the demo portfolio: minutes on a busy machine.
  test.setTimeout(240_000);
  const admin = await apiToken(DEMO_ADMIN);
  const items = await apiCall<{ items: { id: string; identifier: string; contractNumber: string | null }[] }>(
    admin,
    'GET',
    '/api/v1/monitoring/items?entity=vin&pageSize=50',
  );
  const item = items.items.find((candidate) => candidate.contractNumber);
  expect(item, 'a demo vehicle with a contract number').toBeDefined();
  const suffix = unique();
  const address = `wanted-${suffix}@demo.pledgewatch.ru`;
  const name = `Розыск e2e ${suffix}`;
  await apiCall(admin, 'POST', '/api/v1/monitoring/notifications/settings', {
    name,
    method: 'email',
    recipients: [address],
    eventTypes: ['wanted_added'],
    itemFilter: { contractNumber: item!.contractNumber },
  });

  const csv = `vin,record_id,since,region,initiator\n${item!.identifier},E2E-${suffix},2026-03-01,77,ГУ МВД по г. Москве\n`;
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'wanted-e2e.csv');
  const imported = await fetch(`${E2E_APP_URL}/api/v1/monitoring/sources/wanted/imports`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin}` },
    body: form,
  });
  // Received and imported in the background (202): the run starts once the version is active.
  expect(imported.status, await imported.clone().text()).toBe(202);
  const version = ((await imported.json()) as { id: string }).id;
  await expect
    .poll(
      async () =>
        (
          await apiCall<{ items: { id: string; status: string }[] }>(
            admin,
            'GET',
            '/api/v1/monitoring/sources/wanted/imports',
          )
        ).items.find((item) => item.id === version)?.status,
      { timeout: 90_000 },
    )
    .toBe('active');

  const run = await apiCall<{ id: string }>(admin, 'POST', '/api/v1/monitoring/check-runs', {});
  await expect
    .poll(
      async () =>
        (await apiCall<{ status: string }>(admin, 'GET', `/api/v1/monitoring/check-runs/${run.id}`)).status,
      { timeout: 120_000 },
    )
    .toMatch(/^completed/);

  const mail = await waitForMail(address, /Объявлен в розыск/);
  expect(mail.text).toContain(`VIN ${item!.identifier}`);
  expect(mail.text).toContain(`договор ${item!.contractNumber}`);
  expect(mail.text).toContain('Источник: Розыск');
  expect(mail.text).toContain('ГУ МВД по г. Москве');
  expect(mail.text).toContain('(МСК)');

  await signInThroughForm(page, DEMO_ADMIN);
  await page.goto('/monitoring/notifications');
  const delivery = page.getByTestId('delivery-row').filter({ hasText: name });
  await expect(delivery).toContainText(`Объявлен в розыск: ${item!.identifier}`);
  await expect(delivery).toContainText('Доставлено', { timeout: 15_000 });
});
