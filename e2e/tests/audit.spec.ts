import { expect, test } from '@playwright/test';
import { apiCall, apiToken, DEMO_ADMIN, signInThroughForm } from '../support/session.ts';
import { E2E_APP_URL } from '../support/stack.ts';

test('an admin reads the audit log, filters it and exports it', async ({ page }) => {
  const token = await apiToken(DEMO_ADMIN);
  const title = `Аудит ${Date.now()}`;
  const news = await apiCall<{ id: string }>(token, 'POST', '/api/v1/news', {
    title,
    body: 'Черновик для проверки журнала действий',
    draft: true,
  });
  const removed = await fetch(`${E2E_APP_URL}/api/v1/news/${news.id}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(removed.status).toBe(200);

  await signInThroughForm(page, DEMO_ADMIN);
  await page.goto('/settings?tab=audit');
  const table = page.getByRole('table', { name: 'Журнал действий' });
  await expect(table.getByRole('row').filter({ hasText: 'Удаление новости' }).first()).toBeVisible();
  // On a desk the filters stand side by side, starting at the same left edge as the table's text.
  const box = async (label: string) => (await page.getByLabel(label, { exact: true }).boundingBox())!;
  const [actor, action, entity] = [await box('Сотрудник'), await box('Действие'), await box('Объект')];
  expect([action.y, entity.y]).toEqual([actor.y, actor.y]);
  expect(action.x).toBeGreaterThan(actor.x + actor.width);
  await expect(
    table
      .getByRole('row')
      .filter({ hasText: `Заголовок: ${title}` })
      .first(),
  ).toBeVisible();

  await page.getByLabel('Действие').click();
  await page.getByRole('option', { name: 'Создание новости' }).click();
  await expect(table.getByRole('row').filter({ hasText: 'Удаление новости' })).toHaveCount(0);
  await expect(table.getByRole('row').filter({ hasText: 'Создание новости' }).first()).toBeVisible();

  const href = await page.getByRole('link', { name: 'Excel' }).getAttribute('href');
  expect(href).toContain('action=news.created');
  const file = await page.request.get(href!);
  expect(file.status()).toBe(200);
  expect(file.headers()['content-type']).toContain('spreadsheetml');
});
