import { expect, type Page, test } from '@playwright/test';
import { apiCall, apiToken, DEMO_ADMIN, DEMO_ANALYST, signInThroughForm } from '../support/session.ts';

/** The drawer is rendered twice (mobile and desktop); only one copy is on screen. */
const visibleBadge = (page: Page) => page.getByTestId('news-unread-badge').filter({ visible: true });

test('staff publish Markdown news; the analyst sees the badge, reads the news and the badge goes away', async ({
  browser,
}) => {
  const title = `Новые источники проверки ${Date.now()}`;
  const body = [
    '**Важное изменение** в регулярных проверках:',
    '',
    '- добавлен источник сведений о банкротстве;',
    '- ускорена проверка по реестру залогов.',
    '',
    'Подробнее — в [реестре уведомлений о залоге](https://www.reestr-zalogov.ru/).',
    '',
    '<script>window.__newsXss = 1</script>',
    '',
    '[опасная ссылка](javascript:window.__newsXss=2)',
  ].join('\n');

  const admin = await browser.newPage();
  await signInThroughForm(admin, DEMO_ADMIN);
  await admin.goto('/news');
  await admin.getByRole('button', { name: 'Написать новость' }).click();
  const editor = admin.getByRole('dialog', { name: 'Новая новость' });
  // Empty fields are refused with the shared Russian message before anything is sent.
  await editor.getByRole('button', { name: 'Опубликовать' }).click();
  await expect(editor.getByText('Обязательное поле')).toHaveCount(2);
  await editor.getByRole('textbox', { name: /^Заголовок/ }).fill(title);
  await editor.getByRole('textbox', { name: /^Текст/ }).fill(body);
  await editor.getByRole('tab', { name: 'Предпросмотр' }).click();
  await expect(editor.getByTestId('news-preview').locator('strong')).toHaveText('Важное изменение');
  await editor.getByRole('button', { name: 'Опубликовать' }).click();
  await expect(admin.getByText('Новость опубликована')).toBeVisible();
  await expect(admin.getByRole('article', { name: title })).toBeVisible();

  const analyst = await browser.newPage();
  await signInThroughForm(analyst, DEMO_ANALYST);
  const token = await apiToken(DEMO_ANALYST);
  const { count } = await apiCall<{ count: number }>(token, 'GET', '/api/v1/news/unread-count');
  expect(count).toBeGreaterThan(0);
  await expect(visibleBadge(analyst)).toHaveText(String(count));

  await analyst
    .getByRole('navigation')
    .getByRole('link', { name: /Новости/ })
    .filter({ visible: true })
    .click();
  await expect(analyst).toHaveURL(/\/news$/);
  await expect(analyst.getByRole('button', { name: 'Написать новость' })).toHaveCount(0);
  const article = analyst.getByRole('article', { name: title });
  await expect(article).toBeVisible();
  await expect(article).toHaveAttribute('data-unread', 'true');
  await expect(article.locator('strong')).toHaveText('Важное изменение');
  await expect(article.locator('li')).toHaveText([
    'добавлен источник сведений о банкротстве;',
    'ускорена проверка по реестру залогов.',
  ]);
  const link = article.getByRole('link', { name: 'реестре уведомлений о залоге' });
  await expect(link).toHaveAttribute('href', 'https://www.reestr-zalogov.ru/');
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  // Raw HTML and javascript: links are neutralised.
  await expect(article.locator('script')).toHaveCount(0);
  await expect(article.locator('a[href^="javascript"]')).toHaveCount(0);
  await article.getByText('опасная ссылка').click();
  expect(await analyst.evaluate(() => (window as { __newsXss?: number }).__newsXss)).toBeUndefined();

  // Seen means read: the badge goes away, and after a reload nothing is highlighted as new.
  await expect(visibleBadge(analyst)).toHaveCount(0);
  expect((await apiCall<{ count: number }>(token, 'GET', '/api/v1/news/unread-count')).count).toBe(0);
  await analyst.reload();
  await expect(analyst.getByRole('article', { name: title })).not.toHaveAttribute('data-unread', 'true');

  // Staff delete it after confirming; it is gone for everyone.
  await admin.getByRole('button', { name: `Удалить новость «${title}»` }).click();
  const confirm = admin.getByRole('dialog', { name: 'Удалить новость?' });
  await confirm.getByRole('button', { name: 'Удалить' }).click();
  await expect(admin.getByText('Новость удалена')).toBeVisible();
  await expect(admin.getByRole('article', { name: title })).toHaveCount(0);
  await analyst.reload();
  await expect(analyst.getByRole('article')).not.toHaveCount(0);
  await expect(analyst.getByRole('article', { name: title })).toHaveCount(0);
});
