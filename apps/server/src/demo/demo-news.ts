import type { Queryable } from '../db/pool.ts';
import { insertNewsItem, insertNewsReads } from '../modules/news/news.queries.ts';
import { getUserByEmail } from '../modules/users/users.queries.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Product news as the platform team would write them; oldest first, dated back from today. */
export const DEMO_NEWS = [
  {
    daysAgo: 41,
    title: 'Загрузка портфеля из Excel и CSV в Windows-1251',
    body: [
      'Теперь объекты на мониторинг можно загружать файлом **XLSX** или **CSV** — в кодировке UTF-8 или',
      'Windows-1251, с разделителем `;` или `,`.',
      '',
      'Что изменилось:',
      '',
      '- перед импортом показываем предварительный просмотр и ошибки по каждой строке;',
      '- строки с ошибками можно скачать отдельным файлом, исправить и загрузить повторно;',
      '- дубликаты внутри файла и уже известные объекты не создаются второй раз.',
      '',
      'Шаблон файла — на странице «Загрузка» во вкладке «Из файла».',
    ].join('\n'),
  },
  {
    daysAgo: 23,
    title: 'Уведомления в Telegram и на webhook',
    body: [
      'Кроме e-mail, о событиях мониторинга теперь можно узнавать:',
      '',
      '1. в **Telegram** — через бота вашей организации;',
      '2. на **webhook** — JSON-запросом с подписью HMAC-SHA256.',
      '',
      'В каждом уведомлении — объект, источник, было и стало, а также ссылка на событие.',
      'Правила настраиваются в разделе «Уведомления»; для каждого можно выбрать ежедневную сводку вместо',
      'мгновенной отправки.',
    ].join('\n'),
  },
  {
    daysAgo: 9,
    title: 'Плановые работы в ночь на воскресенье, 02:00–04:00 МСК',
    body: [
      'Мы обновим базы данных источников. В это время **регулярные проверки будут приостановлены**, а',
      'разовые проверки могут отвечать дольше обычного. Пропущенные проверки запустятся автоматически',
      'после окончания работ — ничего делать не нужно.',
    ].join('\n'),
  },
  {
    daysAgo: 2,
    title: 'Разовая проверка: печатный документ в PDF',
    body: [
      'Результаты разовой проверки VIN или документа теперь можно открыть как **печатный документ** и',
      'сохранить в PDF, чтобы приложить к кредитному досье.',
      '',
      'В документе указаны опрошенные источники, время проверки и все найденные сведения. Подробнее о',
      'реестре уведомлений о залоге движимого имущества — на сайте',
      '[Федеральной нотариальной палаты](https://www.reestr-zalogov.ru/).',
    ].join('\n'),
  },
] as const;

/** Adds the demo news once, written by the staff account; the author has read them already. */
export async function seedDemoNews(db: Queryable, authorEmail: string): Promise<void> {
  const author = await getUserByEmail(db, authorEmail);
  const now = Date.now();
  for (const news of DEMO_NEWS) {
    const id = await insertNewsItem(db, {
      title: news.title,
      body: news.body,
      pinned: false,
      draft: false,
      authorId: author?.id ?? null,
      publishedAt: new Date(now - news.daysAgo * DAY_MS),
    });
    if (author) {
      await insertNewsReads(db, author.id, [id]);
    }
  }
}
