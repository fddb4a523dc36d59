import { expect, test } from '@playwright/test';
import { waitForMail } from '../support/mail.ts';
import { apiCall, apiToken, DEMO_ADMIN, signInThroughForm } from '../support/session.ts';
import { E2E_SOURCE_URL } from '../support/stack.ts';

const setSourceStatus = (code: number) => fetch(`${E2E_SOURCE_URL}/status?code=${code}`);

test.afterEach(async () => {
  await setSourceStatus(200);
});

test('an admin subscribes to source failures; a run with a failed source says so on the run list and the dashboard', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
  const name = `Сбои паспортов ${suffix}`;
  const address = `ops-${suffix}@demo.pledgewatch.ru`;
  await signInThroughForm(page, DEMO_ADMIN);
  await page.goto('/monitoring/notifications');
  await page.getByRole('button', { name: 'Новое правило' }).click();
  const dialog = page.getByRole('dialog', { name: 'Новое правило уведомлений' });
  await dialog.getByLabel('Название правила').fill(name);
  await dialog.getByRole('combobox', { name: 'О чём уведомлять' }).click();
  await page.getByRole('option', { name: 'Сбои источника данных' }).click();
  // A source rule has no event filters and no digest.
  await expect(dialog.getByRole('combobox', { name: 'Типы событий' })).toBeHidden();
  await expect(dialog.getByRole('combobox', { name: 'Режим' })).toBeHidden();
  await dialog.getByRole('combobox', { name: 'Источник' }).click();
  await page.getByRole('option', { name: 'Недействительные паспорта' }).click();
  await dialog.getByLabel('Ошибок подряд').fill('0');
  await expect(dialog.getByText('Число ошибок подряд — целое от 1 до 100')).toBeVisible();
  await dialog.getByLabel('Ошибок подряд').fill('1');
  await expect(dialog.getByText('Число ошибок подряд — целое от 1 до 100')).toBeHidden();
  await dialog.getByLabel('E-mail получателя 1').fill(address);
  await dialog.getByRole('button', { name: 'Создать правило' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByTestId('notification-rule-row').filter({ hasText: name });
  await expect(row).toContainText('Сбои источника «Недействительные паспорта»: ошибок подряд — 1');

  // The passport source goes down; a run checks a passport.
  await setSourceStatus(503);
  const admin = await apiToken(DEMO_ADMIN);
  await apiCall(admin, 'POST', '/api/v1/monitoring/regular-check/form-doc', {
    rows: [{ documentType: 'passport_rf', number: '4509 123456', label: 'Паспорт e2e' }],
  });
  await page.goto('/monitoring/checks');
  await page.getByRole('button', { name: 'Запустить проверку' }).click();
  const run = page.getByTestId('run-row').first();
  await expect(run).toHaveAttribute('data-status', 'completed_with_errors', { timeout: 120_000 });
  await expect(run).toContainText('Завершена с ошибками источников');
  await expect(run.getByTestId('run-failed-sources')).toContainText('Недействительные паспорта');
  const failed = page.getByTestId('failed-source').and(page.locator('[data-source="passport"]'));
  await expect(failed.first()).toContainText('Недействительные паспорта');
  await expect(failed.first()).toContainText('503');

  await page.goto('/');
  const tile = page.getByTestId('dashboard-run');
  await expect(tile).toContainText('Завершена с ошибками источников');
  await expect(tile.locator('[data-testid="failed-source"][data-source="passport"]')).toContainText(
    'Недействительные паспорта',
  );

  // The alert comes from the minute job, once, through the rule's channel.
  const mail = await waitForMail(address, /^Источник «Недействительные паспорта» не отвечает/, 150_000);
  expect(mail.text).toContain('поставщик недоступен (json-service, HTTP 503');
});
