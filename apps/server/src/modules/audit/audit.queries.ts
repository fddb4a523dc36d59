import type { Queryable } from '../../db/pool.ts';

/** Appends one row to the organisation's audit trail (who did what to which record). */
export async function recordAudit(
  db: Queryable,
  entry: {
    organisationId: string | null;
    userId: string | null;
    action: string;
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
