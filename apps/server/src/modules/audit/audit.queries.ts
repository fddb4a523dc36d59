import type { AuditAction } from '@pledgewatch/contract';
import type { Queryable } from '../../db/pool.ts';

/** Appends one row to the organisation's audit trail (who did what to which record). */
export async function recordAudit(
  db: Queryable,
  entry: {
    organisationId: string | null;
    userId: string | null;
    action: AuditAction;
    entity: string;
    entityId?: string | null;
    details?: Record<string, unknown>;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO audit_log (organisation_id, user_id, action, entity, entity_id, details)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [
      entry.organisationId,
      entry.userId,
      entry.action,
      entry.entity,
      entry.entityId ?? null,
      entry.details ?? {},
    ],
  );
}

export interface AuditFilter {
  organisationId: string;
  actorId?: string;
  action?: string;
  entity?: string;
  entityId?: string;
  /** Moscow calendar days, inclusive. */
  from?: string;
  to?: string;
}

export interface AuditRow {
  id: string;
  created_at: Date;
  user_id: string | null;
  full_name: string | null;
  email: string | null;
  action: string;
  entity: string;
  entity_id: string | null;
  details: Record<string, unknown>;
}

/** WHERE clause and parameters of a filter; always scoped to the organisation. */
export function auditWhere(filter: AuditFilter): { where: string; params: unknown[] } {
  const params: unknown[] = [filter.organisationId];
  const conditions = ['a.organisation_id = $1'];
  const add = (sql: (n: number) => string, value: unknown) => {
    params.push(value);
    conditions.push(sql(params.length));
  };
  if (filter.actorId) {
    add((n) => `a.user_id = $${n}`, filter.actorId);
  }
  if (filter.action) {
    add((n) => `a.action = $${n}`, filter.action);
  }
  if (filter.entity) {
    add((n) => `a.entity = $${n}`, filter.entity);
  }
  if (filter.entityId) {
    add((n) => `a.entity_id = $${n}`, filter.entityId);
  }
  if (filter.from) {
    add((n) => `a.created_at >= ($${n}::date::timestamp AT TIME ZONE 'Europe/Moscow')`, filter.from);
  }
  if (filter.to) {
    add((n) => `a.created_at < (($${n}::date + 1)::timestamp AT TIME ZONE 'Europe/Moscow')`, filter.to);
  }
  return { where: conditions.join(' AND '), params };
}

export const AUDIT_SELECT = `SELECT a.id::text AS id, a.created_at, a.user_id, u.full_name, u.email,
    a.action, a.entity, a.entity_id, a.details
  FROM audit_log a LEFT JOIN users u ON u.id = a.user_id`;

/** One page of the log, newest first. */
export async function findAuditRows(
  db: Queryable,
  filter: AuditFilter,
  page: { limit: number; offset: number },
): Promise<{ items: AuditRow[]; total: number }> {
  const { where, params } = auditWhere(filter);
  const [rows, count] = await Promise.all([
    db.query<AuditRow>(
      `${AUDIT_SELECT} WHERE ${where} ORDER BY a.created_at DESC, a.id DESC
       LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, page.limit, page.offset],
    ),
    db.query<{ total: string }>(`SELECT count(*) AS total FROM audit_log a WHERE ${where}`, params),
  ]);
  return { items: rows.rows, total: Number(count.rows[0]?.total ?? 0) };
}

/** The actions, objects and people present in the organisation's log, for the filters. */
export async function findAuditFacets(
  db: Queryable,
  organisationId: string,
): Promise<{
  actions: string[];
  entities: string[];
  actors: { id: string; full_name: string; email: string }[];
}> {
  const [actions, entities, actors] = await Promise.all([
    db.query<{ action: string }>(
      'SELECT DISTINCT action FROM audit_log WHERE organisation_id = $1 ORDER BY action',
      [organisationId],
    ),
    db.query<{ entity: string }>(
      'SELECT DISTINCT entity FROM audit_log WHERE organisation_id = $1 ORDER BY entity',
      [organisationId],
    ),
    db.query<{ id: string; full_name: string; email: string }>(
      `SELECT u.id, u.full_name, u.email FROM users u
       WHERE u.organisation_id = $1
         AND EXISTS (SELECT 1 FROM audit_log a WHERE a.organisation_id = $1 AND a.user_id = u.id)
       ORDER BY u.full_name, u.email`,
      [organisationId],
    ),
  ]);
  return {
    actions: actions.rows.map((row) => row.action),
    entities: entities.rows.map((row) => row.entity),
    actors: actors.rows,
  };
}
