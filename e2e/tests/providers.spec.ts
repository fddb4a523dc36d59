import { expect, type Page, test } from '@playwright/test';
import { DEMO_ANALYST, signInThroughForm } from '../support/session.ts';

/**
 * A source served by a provider (e2e/support/start-stack.ts: `bankruptcy` through the Fedresurs REST
 * format, answered by the provider simulator): an analyst sees the provider's record in Russian, and
 * when the provider fails, «Источник недоступен» with the reason — never «nothing found».
 */
async function checkInn(page: Page, inn: string) {
  await page.goto('/monitoring/one-time-check');
  await expect(page.getByRole('heading', { name: 'Разовая проверка', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Документ' }).click();
  await page.getByRole('combobox', { name: 'Тип документа' }).click();
  await page.getByRole('option', { name: 'ИНН' }).click();
  await page.getByRole('textbox', { name: 'Номер ИНН' }).fill(inn);
  await page.getByRole('button', { name: 'Проверить' }).click();
  await expect(page).toHaveURL(/\/monitoring\/one-time-check\/results\?id=[0-9a-f-]{36}$/);
}

test('a one-time check with a provider: its finding, and a failing provider’s reason', async ({ page }) => {
  // Two one-time checks and the sources screen: over a minute on a busy machine.
  test.setTimeout(180_000);
  await signInThroughForm(page, DEMO_ANALYST);

  // The debtor of the Fedresurs example: one case with its latest message, type and date in Russian.
  await checkInn(page, '500100732259');
  const bankruptcy = page.getByTestId('source-bankruptcy');
  await expect(bankruptcy).toHaveAttribute('data-outcome', 'found');
  await expect(bankruptcy).toContainText('А41-12345/2024');
  await expect(bankruptcy).toContainText('Иванов Пётр Сергеевич');
  await expect(bankruptcy).toContainText('Объявление о проведении торгов');
  await expect(bankruptcy).toContainText('02.09.2024');
  await expect(bankruptcy).toContainText('Федресурс');

  // The provider fails for this debtor: the result is unknown, and the reason says why.
  await checkInn(page, '7736207543');
  const failed = page.getByTestId('source-bankruptcy');
  await expect(failed).toHaveAttribute('data-outcome', 'failed');
  await expect(failed).toContainText('Источник недоступен: поставщик недоступен (fedresurs, HTTP 503)');
  await expect(page.getByTestId('failed-sources-alert')).toBeVisible();

  // The sources screen: the provider, today's requests (the demo's runs and these checks) and the
  // coverage of the portfolio; money is for admins only.
  await page.goto('/monitoring/checks');
  const source = page.getByTestId('source-row-bankruptcy');
  await expect(source).toContainText('Поставщик: Федресурс');
  await expect(source).toContainText(/Запросов сегодня: [1-9][\d\s\u00a0]*/);
  await expect(source).toContainText(/Покрытие: [\d,]+ %/);
  await expect(source).not.toContainText('Расход');
});
