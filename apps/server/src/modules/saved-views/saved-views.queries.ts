import type { SavedViewList } from '@pledgewatch/contract';
import type { Queryable } from '../../db/pool.ts';

export interface SavedViewRow {
  id: string;
  list: SavedViewList;
  name: string;
  query: string;
  is_default: boolean;
  created_at: Date;
  updated_at: Date;
}

/** Whose views: a user within the organisation they act in. */
export interface ViewOwner {
  organisationId: string;
  userId: string;
}

const COLUMNS = 'id, list, name, query, is_default, created_at, updated_at';

export async function listSavedViews(
  db: Queryable,
  owner: ViewOwner,
  list: SavedViewList,
): Promise<SavedViewRow[]> {
  const { rows } = await db.query<SavedViewRow>(
    `SELECT ${COLUMNS} FROM saved_views
     WHERE user_id = $1 AND organisation_id = $2 AND list = $3
     ORDER BY lower(name), id`,
    [owner.userId, owner.organisationId, list],
  );
  return rows;
}

export async function countSavedViews(db: Queryable, owner: ViewOwner, list: SavedViewList): Promise<number> {
  const { rows } = await db.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM saved_views WHERE user_id = $1 AND organisation_id = $2 AND list = $3',
    [owner.userId, owner.organisationId, list],
  );
  return rows[0]?.count ?? 0;
}

/** The view if it is the owner's; another user's view reads as missing. */
export async function getSavedView(
  db: Queryable,
  owner: ViewOwner,
  id: string,
): Promise<SavedViewRow | null> {
  const { rows } = await db.query<SavedViewRow>(
    `SELECT ${COLUMNS} FROM saved_views WHERE id = $1 AND user_id = $2 AND organisation_id = $3`,
    [id, owner.userId, owner.organisationId],
  );
  return rows[0] ?? null;
}

/** Takes the default mark off the owner's other views of the list (one default per list). */
export async function clearDefault(db: Queryable, owner: ViewOwner, list: SavedViewList): Promise<void> {
  await db.query(
    `UPDATE saved_views SET is_default = false, updated_at = now()
     WHERE user_id = $1 AND organisation_id = $2 AND list = $3 AND is_default`,
    [owner.userId, owner.organisationId, list],
  );
}

export async function insertSavedView(
  db: Queryable,
  owner: ViewOwner,
  view: { list: SavedViewList; name: string; query: string; isDefault: boolean },
): Promise<SavedViewRow> {
  const { rows } = await db.query<SavedViewRow>(
    `INSERT INTO saved_views (organisation_id, user_id, list, name, query, is_default)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
    [owner.organisationId, owner.userId, view.list, view.name, view.query, view.isDefault],
  );
  return rows[0]!;
}

export async function updateSavedViewRow(
  db: Queryable,
  owner: ViewOwner,
  id: string,
  changes: { name?: string; query?: string; isDefault?: boolean },
): Promise<SavedViewRow | null> {
  const { rows } = await db.query<SavedViewRow>(
    `UPDATE saved_views
     SET name = COALESCE($4, name), query = COALESCE($5, query), is_default = COALESCE($6, is_default),
         updated_at = now()
     WHERE id = $1 AND user_id = $2 AND organisation_id = $3
     RETURNING ${COLUMNS}`,
    [
      id,
      owner.userId,
      owner.organisationId,
      changes.name ?? null,
      changes.query ?? null,
      changes.isDefault ?? null,
    ],
  );
  return rows[0] ?? null;
}

export async function deleteSavedViewRow(
  db: Queryable,
  owner: ViewOwner,
  id: string,
): Promise<SavedViewRow | null> {
  const { rows } = await db.query<SavedViewRow>(
    `DELETE FROM saved_views WHERE id = $1 AND user_id = $2 AND organisation_id = $3 RETURNING ${COLUMNS}`,
    [id, owner.userId, owner.organisationId],
  );
  return rows[0] ?? null;
}
