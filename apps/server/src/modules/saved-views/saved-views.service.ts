import {
  type CreateSavedViewBody,
  SAVED_VIEWS_PER_LIST_MAX,
  type SavedView,
  type SavedViewList,
  savedViewQuery,
  type UpdateSavedViewBody,
} from '@pledgewatch/contract';
import type pg from 'pg';
import { type Queryable, withTransaction } from '../../db/pool.ts';
import { AppError } from '../../lib/app-error.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import {
  clearDefault,
  countSavedViews,
  deleteSavedViewRow,
  getSavedView,
  insertSavedView,
  listSavedViews,
  type SavedViewRow,
  updateSavedViewRow,
  type ViewOwner,
} from './saved-views.queries.ts';

/*
 * Not in the audit log: a saved view is a personal setting like the theme or the profile, which the
 * product does not log either, and it changes nothing anyone else sees.
 */

const toSavedView = (row: SavedViewRow): SavedView => ({
  id: row.id,
  list: row.list,
  name: row.name,
  query: row.query,
  isDefault: row.is_default,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

const ownerOf = (auth: AuthContext): ViewOwner => ({
  organisationId: auth.organisationId,
  userId: auth.userId,
});

const NAME_TAKEN = 'Вид с таким названием уже есть в этом списке';

/** The unique name index (case-insensitive) answers a taken name, also between two concurrent saves. */
async function nameChecked<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const pgError = error as { code?: string; constraint?: string };
    if (pgError.code === '23505' && pgError.constraint === 'saved_views_name') {
      throw new AppError('VALIDATION_FAILED', {
        message: NAME_TAKEN,
        fieldErrors: [{ field: 'name', message: NAME_TAKEN }],
      });
    }
    throw error;
  }
}

export async function findSavedViews(options: {
  db: Queryable;
  auth: AuthContext;
  list: SavedViewList;
}): Promise<{ items: SavedView[] }> {
  const rows = await listSavedViews(options.db, ownerOf(options.auth), options.list);
  return { items: rows.map(toSavedView) };
}

/**
 * Saves a list's filters and sort under a name. The query keeps only the list's view keys (others,
 * such as the page or an open record, are dropped), so a view opens the same list whatever the URL held.
 */
export async function createSavedView(options: {
  db: pg.Pool;
  auth: AuthContext;
  body: CreateSavedViewBody;
}): Promise<SavedView> {
  const { db, auth, body } = options;
  const owner = ownerOf(auth);
  return nameChecked(() =>
    withTransaction(db, async (tx) => {
      if ((await countSavedViews(tx, owner, body.list)) >= SAVED_VIEWS_PER_LIST_MAX) {
        throw new AppError('VALIDATION_FAILED', {
          message: `В этом списке уже ${SAVED_VIEWS_PER_LIST_MAX} сохранённых видов: удалите ненужный, чтобы сохранить новый`,
        });
      }
      if (body.isDefault) {
        await clearDefault(tx, owner, body.list);
      }
      const row = await insertSavedView(tx, owner, {
        list: body.list,
        name: body.name,
        query: savedViewQuery(body.list, body.query),
        isDefault: body.isDefault ?? false,
      });
      return toSavedView(row);
    }),
  );
}

/** Renames a view, replaces its filters or moves the default mark to it (or off it). */
export async function updateSavedView(options: {
  db: pg.Pool;
  auth: AuthContext;
  id: string;
  body: UpdateSavedViewBody;
}): Promise<SavedView> {
  const { db, auth, id, body } = options;
  const owner = ownerOf(auth);
  return nameChecked(() =>
    withTransaction(db, async (tx) => {
      const current = await getSavedView(tx, owner, id);
      if (!current) {
        throw new AppError('SAVED_VIEW_NOT_FOUND');
      }
      if (body.isDefault) {
        await clearDefault(tx, owner, current.list);
      }
      const row = await updateSavedViewRow(tx, owner, id, {
        name: body.name,
        query: body.query === undefined ? undefined : savedViewQuery(current.list, body.query),
        isDefault: body.isDefault,
      });
      if (!row) {
        throw new AppError('SAVED_VIEW_NOT_FOUND');
      }
      return toSavedView(row);
    }),
  );
}

export async function deleteSavedView(options: {
  db: Queryable;
  auth: AuthContext;
  id: string;
}): Promise<SavedView> {
  const row = await deleteSavedViewRow(options.db, ownerOf(options.auth), options.id);
  if (!row) {
    throw new AppError('SAVED_VIEW_NOT_FOUND');
  }
  return toSavedView(row);
}
