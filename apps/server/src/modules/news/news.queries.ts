import type { Queryable } from '../../db/pool.ts';

export interface NewsRow {
  id: string;
  title: string;
  body: string;
  pinned: boolean;
  draft: boolean;
  published_at: Date | null;
  created_at: Date;
  updated_at: Date;
  author_name: string | null;
  read: boolean;
}

/*
 * News are platform-wide, so these queries are not scoped by organisation; read marks are scoped by
 * the signed-in user instead. Only staff see drafts.
 */
const VISIBLE = '(NOT n.draft OR $2::boolean)';

const NEWS_COLUMNS = `n.id, n.title, n.body, n.pinned, n.draft, n.published_at, n.created_at, n.updated_at,
  a.full_name AS author_name, (r.user_id IS NOT NULL) AS read`;

const NEWS_FROM = `news_items n
  LEFT JOIN users a ON a.id = n.author_id
  LEFT JOIN news_reads r ON r.news_id = n.id AND r.user_id = $1`;

/** Pinned first, then newest first; drafts (staff only) sort by their creation time. */
export async function findNews(
  db: Queryable,
  filter: { userId: string; includeDrafts: boolean; limit: number; offset: number },
): Promise<{ items: NewsRow[]; total: number }> {
  const [items, total] = await Promise.all([
    db.query<NewsRow>(
      `SELECT ${NEWS_COLUMNS} FROM ${NEWS_FROM}
        WHERE ${VISIBLE}
        ORDER BY n.pinned DESC, COALESCE(n.published_at, n.created_at) DESC, n.id DESC
        LIMIT $3 OFFSET $4`,
      [filter.userId, filter.includeDrafts, filter.limit, filter.offset],
    ),
    db.query<{ count: number }>(
      `SELECT count(*) AS count FROM news_items n WHERE (NOT n.draft OR $1::boolean)`,
      [filter.includeDrafts],
    ),
  ]);
  return { items: items.rows, total: total.rows[0]!.count };
}

export async function getNewsItem(db: Queryable, userId: string, id: string): Promise<NewsRow | undefined> {
  const { rows } = await db.query<NewsRow>(`SELECT ${NEWS_COLUMNS} FROM ${NEWS_FROM} WHERE n.id = $2`, [
    userId,
    id,
  ]);
  return rows[0];
}

/** Published items the user has not read; drafts never count. */
export async function countUnreadNews(db: Queryable, userId: string): Promise<number> {
  const { rows } = await db.query<{ count: number }>(
    `SELECT count(*) AS count FROM news_items n
      WHERE NOT n.draft
        AND NOT EXISTS (SELECT 1 FROM news_reads r WHERE r.news_id = n.id AND r.user_id = $1)`,
    [userId],
  );
  return rows[0]!.count;
}

/** Marks published items read; unknown ids and drafts are skipped. `ids` null means all. */
export async function insertNewsReads(db: Queryable, userId: string, ids: string[] | null): Promise<number> {
  const { rowCount } = await db.query(
    `INSERT INTO news_reads (user_id, news_id)
     SELECT $1, n.id FROM news_items n
      WHERE NOT n.draft AND ($2::uuid[] IS NULL OR n.id = ANY($2::uuid[]))
     ON CONFLICT DO NOTHING`,
    [userId, ids],
  );
  return rowCount ?? 0;
}

export async function insertNewsItem(
  db: Queryable,
  item: {
    title: string;
    body: string;
    pinned: boolean;
    draft: boolean;
    authorId: string | null;
    publishedAt?: Date;
  },
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO news_items (title, body, pinned, draft, author_id, published_at)
     VALUES ($1, $2, $3, $4, $5, CASE WHEN $4 THEN NULL ELSE COALESCE($6::timestamptz, now()) END)
     RETURNING id`,
    [item.title, item.body, item.pinned, item.draft, item.authorId, item.publishedAt ?? null],
  );
  return rows[0]!.id;
}

/** Locks the row for an update or delete in the same transaction. */
export async function lockNewsItem(
  db: Queryable,
  id: string,
): Promise<{ id: string; draft: boolean; published_at: Date | null } | undefined> {
  const { rows } = await db.query<{ id: string; draft: boolean; published_at: Date | null }>(
    'SELECT id, draft, published_at FROM news_items WHERE id = $1 FOR UPDATE',
    [id],
  );
  return rows[0];
}

export async function updateNewsFields(
  db: Queryable,
  id: string,
  fields: Partial<{ title: string; body: string; pinned: boolean; draft: boolean; published_at: Date }>,
): Promise<void> {
  const entries = Object.entries(fields).filter(([, value]) => value !== undefined);
  // Column names come from the typed keys above, never from input.
  const sets = entries.map(([column], index) => `${column} = $${index + 2}`);
  await db.query(`UPDATE news_items SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE id = $1`, [
    id,
    ...entries.map(([, value]) => value),
  ]);
}

export async function deleteNewsItem(db: Queryable, id: string): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM news_items WHERE id = $1', [id]);
  return rowCount ?? 0;
}
