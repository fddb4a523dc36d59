import {
  type CreateNewsBody,
  NEWS_NOT_FOUND_MESSAGE,
  NEWS_STAFF_ONLY_MESSAGE,
  type NewsItem,
  type NewsPage,
  type UpdateNewsBody,
} from '@pledgewatch/contract';
import type pg from 'pg';
import { withTransaction } from '../../db/pool.ts';
import { AppError } from '../../lib/app-error.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { recordAudit } from '../audit/index.ts';
import {
  countUnreadNews,
  deleteNewsItem,
  findNews as findNewsRows,
  getNewsItem,
  insertNewsItem,
  insertNewsReads,
  lockNewsItem,
  type NewsRow,
  updateNewsFields,
} from './news.queries.ts';

export function toNewsItem(row: NewsRow): NewsItem {
  return {
    id: row.id,
    title: row.title,
    body: row.body,
    pinned: row.pinned,
    draft: row.draft,
    publishedAt: row.published_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    authorName: row.author_name,
    // A draft has nothing to read yet; it never counts as unread.
    read: row.read || row.draft,
  };
}

/** Writes are for platform staff; the route checks too, this guards other callers. */
function assertStaff(auth: AuthContext): void {
  if (!auth.isStaff) {
    throw new AppError('FORBIDDEN', { message: NEWS_STAFF_ONLY_MESSAGE });
  }
}

export async function findNews(options: {
  db: pg.Pool;
  auth: AuthContext;
  page: number;
  pageSize: number;
}): Promise<NewsPage> {
  const { auth } = options;
  const [{ items, total }, unreadCount] = await Promise.all([
    findNewsRows(options.db, {
      userId: auth.userId,
      includeDrafts: auth.isStaff,
      limit: options.pageSize,
      offset: (options.page - 1) * options.pageSize,
    }),
    countUnreadNews(options.db, auth.userId),
  ]);
  return { items: items.map(toNewsItem), total, unreadCount };
}

export async function getUnreadNewsCount(options: { db: pg.Pool; auth: AuthContext }): Promise<number> {
  return countUnreadNews(options.db, options.auth.userId);
}

/** Marks the given items (or every published one) read for the signed-in user only. */
export async function markNewsRead(options: {
  db: pg.Pool;
  auth: AuthContext;
  all?: boolean;
  ids?: string[];
}): Promise<{ marked: number; unreadCount: number }> {
  const { auth } = options;
  const ids = options.all ? null : [...new Set(options.ids ?? [])];
  const marked = await insertNewsReads(options.db, auth.userId, ids);
  return { marked, unreadCount: await countUnreadNews(options.db, auth.userId) };
}

export async function createNews(options: {
  db: pg.Pool;
  auth: AuthContext;
  news: CreateNewsBody;
}): Promise<NewsItem> {
  const { auth, news } = options;
  assertStaff(auth);
  return withTransaction(options.db, async (tx) => {
    const id = await insertNewsItem(tx, {
      title: news.title,
      body: news.body,
      pinned: news.pinned ?? false,
      draft: news.draft ?? false,
      authorId: auth.userId,
    });
    // The author has read what they just wrote.
    await insertNewsReads(tx, auth.userId, [id]);
    await recordAudit(tx, {
      organisationId: auth.organisationId,
      userId: auth.userId,
      action: 'news.created',
      entity: 'news',
      entityId: id,
      details: { title: news.title, draft: news.draft ?? false },
    });
    return toNewsItem((await getNewsItem(tx, auth.userId, id))!);
  });
}

export async function updateNews(options: {
  db: pg.Pool;
  auth: AuthContext;
  newsId: string;
  changes: UpdateNewsBody;
}): Promise<NewsItem> {
  const { auth, changes } = options;
  assertStaff(auth);
  return withTransaction(options.db, async (tx) => {
    const current = await lockNewsItem(tx, options.newsId);
    if (!current) {
      throw new AppError('NOT_FOUND', { message: NEWS_NOT_FOUND_MESSAGE });
    }
    // Publishing a draft for the first time dates it now, so it lands on top of the feed.
    const publishes = changes.draft === false && current.draft && current.published_at === null;
    await updateNewsFields(tx, current.id, {
      title: changes.title,
      body: changes.body,
      pinned: changes.pinned,
      draft: changes.draft,
      published_at: publishes ? new Date() : undefined,
    });
    await recordAudit(tx, {
      organisationId: auth.organisationId,
      userId: auth.userId,
      action: 'news.updated',
      entity: 'news',
      entityId: current.id,
      details: {
        fields: Object.keys(changes).filter((key) => changes[key as keyof UpdateNewsBody] !== undefined),
      },
    });
    return toNewsItem((await getNewsItem(tx, auth.userId, current.id))!);
  });
}

export async function deleteNews(options: { db: pg.Pool; auth: AuthContext; newsId: string }): Promise<void> {
  const { auth } = options;
  assertStaff(auth);
  await withTransaction(options.db, async (tx) => {
    if ((await deleteNewsItem(tx, options.newsId)) === 0) {
      throw new AppError('NOT_FOUND', { message: NEWS_NOT_FOUND_MESSAGE });
    }
    await recordAudit(tx, {
      organisationId: auth.organisationId,
      userId: auth.userId,
      action: 'news.deleted',
      entity: 'news',
      entityId: options.newsId,
    });
  });
}
