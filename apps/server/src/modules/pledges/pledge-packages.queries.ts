// SQL of pledge packages: their list, content, history and status.
import type { PackageStatus } from '@pledgewatch/contract';
import type { Queryable } from '../../db/pool.ts';

/** The VINs of a package's notifications, for checking them again once it is registered. */
export async function listPackageVins(db: Queryable, packageId: string): Promise<string[]> {
  const { rows } = await db.query<{ vin: string }>(
    'SELECT DISTINCT unnest(vins) AS vin FROM pledge_events WHERE package_id = $1 ORDER BY 1',
    [packageId],
  );
  return rows.map((row) => row.vin);
}

export interface PackageRow {
  id: string;
  organisation_id: string;
  number: number;
  name: string;
  origin: 'upload' | 'manual';
  upload_id: string | null;
  status: PackageStatus;
  created_by: string | null;
  created_by_name: string | null;
  approved_by: string | null;
  approved_by_name: string | null;
  approved_at: Date | null;
  sent_at: Date | null;
  registered_at: Date | null;
  rejection_reason: string | null;
  created_at: Date;
  updated_at: Date;
  events_count: number;
  registered_count: number;
  kinds: Record<string, number>;
  /** Users who entered the package's current events (maker-checker: they may not approve it). */
  event_authors: string[];
  /** Everyone who ever corrected one of its current events, not only the latest corrector (the same). */
  event_correctors: string[];
  /** Users who created the package or added/removed its events (its history's content actions). */
  content_editors: string[];
}

/** Package history actions that change what the package contains. */
export const PACKAGE_CONTENT_ACTIONS = ['created', 'events_added', 'events_removed'];

/**
 * The events a package holds (kind, registered number): its current ones, and for a rejected package
 * also those it held when the registry rejected it (they may since be in a new package), as its events
 * list shows them. Two index lookups, never a scan of every event.
 */
const PACKAGE_HELD = `(SELECT kind, registered_number FROM pledge_events WHERE package_id = k.id
   UNION ALL
   SELECT e.kind, e.registered_number FROM pledge_event_rejections r JOIN pledge_events e ON e.id = r.event_id
    WHERE k.status = 'rejected' AND r.package_id = k.id AND e.package_id IS DISTINCT FROM k.id)`;

const PACKAGE_SELECT = `SELECT k.id, k.organisation_id, k.number, k.name, k.origin, k.upload_id, k.status,
    k.created_by, cu.full_name AS created_by_name, k.approved_by, au.full_name AS approved_by_name,
    k.approved_at, k.sent_at, k.registered_at, k.rejection_reason, k.created_at, k.updated_at,
    coalesce(s.events_count, 0)::int AS events_count, coalesce(s.registered_count, 0)::int AS registered_count,
    coalesce(s.kinds, '{}'::jsonb) AS kinds,
    ARRAY(SELECT DISTINCT e.created_by::text FROM pledge_events e
           WHERE e.package_id = k.id AND e.created_by IS NOT NULL) AS event_authors,
    ARRAY(SELECT DISTINCT c.corrected_by::text FROM pledge_events e JOIN pledge_event_corrections c ON c.event_id = e.id
           WHERE e.package_id = k.id AND c.corrected_by IS NOT NULL) AS event_correctors,
    ARRAY(SELECT DISTINCT h.user_id::text FROM pledge_package_history h
           WHERE h.package_id = k.id AND h.user_id IS NOT NULL
             AND h.action IN ('${PACKAGE_CONTENT_ACTIONS.join("', '")}')) AS content_editors
  FROM pledge_packages k
  LEFT JOIN users cu ON cu.id = k.created_by
  LEFT JOIN users au ON au.id = k.approved_by
  LEFT JOIN LATERAL (
    SELECT count(*) AS events_count, count(*) FILTER (WHERE registered_number IS NOT NULL) AS registered_count,
           (SELECT jsonb_object_agg(kind, n) FROM (
              SELECT kind, count(*)::int AS n FROM ${PACKAGE_HELD} h GROUP BY kind) g) AS kinds
      FROM ${PACKAGE_HELD} h
  ) s ON true`;

export async function findPackages(
  db: Queryable,
  options: { organisationId: string; statuses?: PackageStatus[]; limit: number; offset: number },
): Promise<{ items: PackageRow[]; total: number }> {
  const params: unknown[] = [options.organisationId];
  let where = 'k.organisation_id = $1';
  if (options.statuses?.length) {
    params.push(options.statuses);
    where += ` AND k.status = ANY($${params.length}::text[])`;
  }
  const [list, count] = await Promise.all([
    db.query<PackageRow>(
      `${PACKAGE_SELECT} WHERE ${where} ORDER BY k.created_at DESC, k.number DESC
        LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, options.limit, options.offset],
    ),
    db.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM pledge_packages k WHERE ${where}`,
      params,
    ),
  ]);
  return { items: list.rows, total: count.rows[0]!.total };
}

export async function getPackage(
  db: Queryable,
  organisationId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<PackageRow | undefined> {
  if (options.forUpdate) {
    await db.query('SELECT 1 FROM pledge_packages WHERE organisation_id = $1 AND id = $2 FOR UPDATE', [
      organisationId,
      id,
    ]);
  }
  const { rows } = await db.query<PackageRow>(
    `${PACKAGE_SELECT} WHERE k.organisation_id = $1 AND k.id = $2`,
    [organisationId, id],
  );
  return rows[0];
}

export async function insertPackage(
  db: Queryable,
  values: {
    organisationId: string;
    name: string | null;
    origin: 'upload' | 'manual';
    uploadId: string | null;
    userId: string | null;
  },
): Promise<{ id: string; number: number }> {
  // Numbers are per organisation; the lock serialises two packages created at once.
  await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`pledge_packages:${values.organisationId}`]);
  const { rows } = await db.query<{ id: string; number: number }>(
    `INSERT INTO pledge_packages (organisation_id, number, name, origin, upload_id, created_by)
     SELECT $1, n, coalesce($2, 'Пакет № ' || n), $3, $4, $5
       FROM (SELECT coalesce(max(number), 0) + 1 AS n FROM pledge_packages WHERE organisation_id = $1) x
     RETURNING id, number`,
    [values.organisationId, values.name, values.origin, values.uploadId, values.userId],
  );
  return rows[0]!;
}

export async function addPackageHistory(
  db: Queryable,
  entry: {
    packageId: string;
    action: string;
    fromStatus: PackageStatus | null;
    toStatus: PackageStatus;
    comment?: string | null;
    userId: string | null;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO pledge_package_history (package_id, action, from_status, to_status, comment, user_id)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [entry.packageId, entry.action, entry.fromStatus, entry.toStatus, entry.comment ?? null, entry.userId],
  );
}

export interface PackageHistoryRow {
  action: string;
  from_status: PackageStatus | null;
  to_status: PackageStatus;
  comment: string | null;
  user_id: string | null;
  user_name: string | null;
  created_at: Date;
}

export async function listPackageHistory(db: Queryable, packageId: string): Promise<PackageHistoryRow[]> {
  const { rows } = await db.query<PackageHistoryRow>(
    `SELECT h.action, h.from_status, h.to_status, h.comment, h.user_id, u.full_name AS user_name, h.created_at
       FROM pledge_package_history h LEFT JOIN users u ON u.id = h.user_id
      WHERE h.package_id = $1 ORDER BY h.id`,
    [packageId],
  );
  return rows;
}

/** Moves the events into the package; only the organisation's events in no package move. */
export async function assignEvents(
  db: Queryable,
  organisationId: string,
  packageId: string,
  eventIds: string[],
): Promise<{ moved: number; notFree: string[] }> {
  // An event of a package the registry rejected is free again: it may go into a new package.
  const { rows } = await db.query<{ id: string; package_id: string | null; package_status: string | null }>(
    `SELECT e.id, e.package_id, k.status AS package_status
       FROM pledge_events e LEFT JOIN pledge_packages k ON k.id = e.package_id
      WHERE e.organisation_id = $1 AND e.id = ANY($2::uuid[]) FOR UPDATE OF e`,
    [organisationId, eventIds],
  );
  const found = new Set(rows.map((row) => row.id));
  const notFree = [
    ...eventIds.filter((id) => !found.has(id)),
    ...rows
      .filter(
        (row) => row.package_id !== null && row.package_id !== packageId && row.package_status !== 'rejected',
      )
      .map((row) => row.id),
  ];
  if (notFree.length > 0) {
    return { moved: 0, notFree };
  }
  const { rowCount } = await db.query(
    `UPDATE pledge_events e SET package_id = $3 WHERE e.organisation_id = $1 AND e.id = ANY($2::uuid[])
        AND (e.package_id IS NULL OR EXISTS (
          SELECT 1 FROM pledge_packages k WHERE k.id = e.package_id AND k.status = 'rejected'))`,
    [organisationId, eventIds, packageId],
  );
  return { moved: rowCount ?? 0, notFree: [] };
}

export async function releaseEvents(
  db: Queryable,
  organisationId: string,
  packageId: string,
  eventIds: string[],
): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE pledge_events SET package_id = NULL
      WHERE organisation_id = $1 AND package_id = $2 AND id = ANY($3::uuid[])`,
    [organisationId, packageId, eventIds],
  );
  return rowCount ?? 0;
}

export async function updatePackageStatus(
  db: Queryable,
  id: string,
  values: {
    status: PackageStatus;
    approvedBy?: string | null;
    stamp?: 'approved_at' | 'sent_at' | 'registered_at' | null;
    rejectionReason?: string | null;
    clearApproval?: boolean;
  },
): Promise<void> {
  const sets = ['status = $2', 'updated_at = now()'];
  const params: unknown[] = [id, values.status];
  if (values.approvedBy !== undefined) {
    params.push(values.approvedBy);
    sets.push(`approved_by = $${params.length}`);
  }
  if (values.stamp) {
    // Column names come from the typed union above, never from input.
    sets.push(`${values.stamp} = now()`);
  }
  if (values.rejectionReason !== undefined) {
    params.push(values.rejectionReason);
    sets.push(`rejection_reason = $${params.length}`);
  }
  if (values.clearApproval) {
    sets.push('approved_by = NULL', 'approved_at = NULL');
  }
  await db.query(`UPDATE pledge_packages SET ${sets.join(', ')} WHERE id = $1`, params);
}
