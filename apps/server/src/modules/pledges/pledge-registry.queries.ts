// SQL of the registry's answers to a package: registered numbers and rejections.
import type { PledgeEventKind } from '@pledgewatch/contract';
import type { Queryable } from '../../db/pool.ts';

/** Keeps, per event of a package the registry rejected, the rejection (reason, who, when). */
export async function recordRejections(
  db: Queryable,
  packageId: string,
  reason: string | null,
  userId: string,
): Promise<number> {
  const { rowCount } = await db.query(
    `INSERT INTO pledge_event_rejections (event_id, package_id, reason, rejected_by)
     SELECT id, $1, $2, $3 FROM pledge_events WHERE package_id = $1`,
    [packageId, reason, userId],
  );
  return rowCount ?? 0;
}

export interface RejectionRow {
  package_id: string | null;
  package_number: number | null;
  reason: string | null;
  rejected_by: string | null;
  rejected_by_name: string | null;
  rejected_at: Date;
}

/** Every rejection of an event, oldest first. */
export async function listEventRejections(db: Queryable, eventId: string): Promise<RejectionRow[]> {
  const { rows } = await db.query<RejectionRow>(
    `SELECT r.package_id, k.number AS package_number, r.reason, r.rejected_by, u.full_name AS rejected_by_name,
            r.rejected_at
       FROM pledge_event_rejections r
       LEFT JOIN pledge_packages k ON k.id = r.package_id
       LEFT JOIN users u ON u.id = r.rejected_by
      WHERE r.event_id = $1 ORDER BY r.id`,
    [eventId],
  );
  return rows;
}

/**
 * Sets the registered number of package events (with the certificate's registration time when the
 * registry's file gives it); a creation's number becomes its pledge's number.
 */
export async function setRegisteredNumbers(
  db: Queryable,
  organisationId: string,
  packageId: string,
  items: { eventId: string; registeredNumber: string; registeredAt?: string | null }[],
): Promise<{ updated: number; missing: string[] }> {
  const { rows } = await db.query<{ id: string; pledge_id: string; kind: PledgeEventKind }>(
    `UPDATE pledge_events e SET registered_number = x.num, registered_at = coalesce(x.at, e.registered_at)
       FROM unnest($3::uuid[], $4::text[], $5::timestamptz[]) AS x (id, num, at)
      WHERE e.organisation_id = $1 AND e.package_id = $2 AND e.id = x.id
      RETURNING e.id, e.pledge_id, e.kind`,
    [
      organisationId,
      packageId,
      items.map((i) => i.eventId),
      items.map((i) => i.registeredNumber),
      items.map((i) => i.registeredAt ?? null),
    ],
  );
  const updated = new Set(rows.map((row) => row.id));
  await db.query(
    `UPDATE pledges p SET registration_number = e.registered_number, updated_at = now()
       FROM pledge_events e
      WHERE e.id = ANY($1::uuid[]) AND e.kind = 'creation' AND p.id = e.pledge_id AND p.registration_number IS NULL`,
    [rows.map((row) => row.id)],
  );
  return {
    updated: updated.size,
    missing: items.filter((i) => !updated.has(i.eventId)).map((i) => i.eventId),
  };
}

/** A registration number already used by another pledge of the organisation. */
export async function findNumberOwners(
  db: Queryable,
  organisationId: string,
  numbers: string[],
): Promise<{ registration_number: string; pledge_id: string }[]> {
  const { rows } = await db.query<{ registration_number: string; pledge_id: string }>(
    `SELECT registration_number, id AS pledge_id FROM pledges
      WHERE organisation_id = $1 AND registration_number = ANY($2::text[])`,
    [organisationId, numbers],
  );
  return rows;
}

/** The organisation's events with these NotificationIds, with the package each is in. */
export async function findEventsByNotificationIds(
  db: Queryable,
  organisationId: string,
  notificationIds: string[],
): Promise<
  {
    id: string;
    notification_id: string;
    kind: PledgeEventKind;
    package_id: string | null;
    package_number: number | null;
  }[]
> {
  const { rows } = await db.query(
    `SELECT e.id, e.notification_id::text, e.kind, e.package_id, k.number AS package_number
       FROM pledge_events e LEFT JOIN pledge_packages k ON k.id = e.package_id
      WHERE e.organisation_id = $1 AND e.notification_id = ANY($2::uuid[])`,
    [organisationId, notificationIds],
  );
  return rows;
}

/** Keeps the registry's rejections of single notifications of the package (source `registry`). */
export async function recordRegistryRejections(
  db: Queryable,
  packageId: string,
  items: { eventId: string; reason: string }[],
  userId: string,
): Promise<number> {
  if (items.length === 0) {
    return 0;
  }
  const { rowCount } = await db.query(
    `INSERT INTO pledge_event_rejections (event_id, package_id, reason, rejected_by, source)
     SELECT x.id, $1, x.reason, $4, 'registry' FROM unnest($2::uuid[], $3::text[]) AS x (id, reason)`,
    [packageId, items.map((i) => i.eventId), items.map((i) => i.reason), userId],
  );
  return rowCount ?? 0;
}

/** How many of the package's events have a number, and how many the registry rejected without one. */
export async function packageOutcome(
  db: Queryable,
  packageId: string,
): Promise<{ total: number; numbered: number; rejected: number; reason: string | null }> {
  const { rows } = await db.query<{
    total: number;
    numbered: number;
    rejected: number;
    reason: string | null;
  }>(
    `SELECT count(*)::int AS total,
            count(*) FILTER (WHERE e.registered_number IS NOT NULL)::int AS numbered,
            count(*) FILTER (WHERE e.registered_number IS NULL AND EXISTS (
              SELECT 1 FROM pledge_event_rejections r WHERE r.event_id = e.id AND r.package_id = $1))::int AS rejected,
            (SELECT r.reason FROM pledge_event_rejections r JOIN pledge_events x ON x.id = r.event_id
              WHERE r.package_id = $1 AND x.package_id = $1 ORDER BY r.id LIMIT 1) AS reason
       FROM pledge_events e WHERE e.package_id = $1`,
    [packageId],
  );
  return rows[0]!;
}
