// SQL of pledge events (notifications): writing them and the registry table that lists them.
import type {
  EventSubmissionStatus,
  PackageStatus,
  PledgeEventKind,
  PledgeParty,
  PledgeStatus,
} from '@pledgewatch/contract';
import { itemLastCheckedSql } from '../../db/item-last-check.ts';
import type { Queryable } from '../../db/pool.ts';
import { containsPattern } from '../../lib/like-pattern.ts';
import type { VehicleJson } from './pledges.queries.ts';

export interface EventRow {
  id: string;
  organisation_id: string;
  pledge_id: string;
  kind: PledgeEventKind;
  registration_number: string | null;
  registered_number: string | null;
  notification_date: string;
  pledgor: PledgeParty;
  pledgor_name: string;
  pledgor_identifier: string;
  pledgee: PledgeParty;
  pledgee_name: string;
  contract_name: string | null;
  contract_number: string;
  contract_date: string;
  contract_end_date: string | null;
  vehicles: VehicleJson[];
  source: 'form' | 'upload';
  upload_id: string | null;
  row_number: number | null;
  package_id: string | null;
  created_by: string | null;
  created_at: Date;
  /** NotificationId of its XML file: the same on every export, new after a correction. */
  notification_id: string;
  registered_at: Date | null;
}

/** An event row joined with its pledge, package and author, for the registry table. */
export interface EventListRow extends EventRow {
  pledge_status: PledgeStatus;
  pledge_registration_number: string | null;
  pledge_contract_end_date: string | null;
  package_number: number | null;
  package_name: string | null;
  package_status: PackageStatus | null;
  author_name: string | null;
  /** The pledge's registration is known (a number or a registered package). */
  pledge_registered: boolean;
  /** The latest rejection by the registry, if any: {packageId, packageNumber, reason, rejectedAt}. */
  last_rejection: {
    packageId: string | null;
    packageNumber: number | null;
    reason: string | null;
    rejectedAt: string;
  } | null;
  corrected_at: Date | null;
  /**
   * The re-check after registration: when the notification's first VIN was last checked (after the
   * registration) and whether the registry's data then held its pledge's number.
   */
  registry_check: { checkedAt: string; found: boolean } | null;
}

const EVENT_COLUMNS = `e.id, e.organisation_id, e.pledge_id, e.kind, e.registration_number, e.registered_number,
  e.notification_date::text, e.pledgor, e.pledgor_name, e.pledgor_identifier, e.pledgee, e.pledgee_name,
  e.contract_name, e.contract_number, e.contract_date::text, e.contract_end_date::text, e.vehicles, e.source,
  e.upload_id, e.row_number, e.package_id, e.created_by, e.created_at, e.notification_id, e.registered_at`;

const EVENT_LIST_FROM = `pledge_events e
  JOIN pledges p ON p.id = e.pledge_id
  LEFT JOIN pledge_packages k ON k.id = e.package_id
  LEFT JOIN users u ON u.id = e.created_by`;

const EVENT_LIST_COLUMNS = `${EVENT_COLUMNS}, p.status AS pledge_status, p.registration_number AS pledge_registration_number,
  p.contract_end_date::text AS pledge_contract_end_date, k.number AS package_number, k.name AS package_name,
  k.status AS package_status, u.full_name AS author_name,
  (p.registration_number IS NOT NULL OR EXISTS (
     SELECT 1 FROM pledge_events c JOIN pledge_packages cp ON cp.id = c.package_id
      WHERE c.pledge_id = p.id AND c.kind = 'creation' AND cp.status = 'registered')) AS pledge_registered,
  (SELECT jsonb_build_object('packageId', r.package_id, 'packageNumber', rk.number, 'reason', r.reason,
            'rejectedAt', r.rejected_at)
     FROM pledge_event_rejections r LEFT JOIN pledge_packages rk ON rk.id = r.package_id
    WHERE r.event_id = e.id ORDER BY r.id DESC LIMIT 1) AS last_rejection,
  e.corrected_at,
  (SELECT jsonb_build_object('checkedAt', x.checked_at, 'found', EXISTS (
            SELECT 1 FROM finding_snapshots s, jsonb_array_elements(s.findings) f
             WHERE s.item_id = x.item_id AND s.source_type = 'pledges'
               AND coalesce(f->>'key', f->'payload'->>'notice_number') = split_part(e.registered_number, '/', 1)
               AND (f->'payload'->>'verified') IS DISTINCT FROM 'false'))
     FROM (SELECT m.id AS item_id, ${itemLastCheckedSql('m.id')} AS checked_at
             FROM monitoring_items m
            WHERE m.organisation_id = e.organisation_id AND m.kind = 'vin' AND m.identifier = e.vins[1]) x
    WHERE e.registered_number IS NOT NULL AND k.status = 'registered'
      AND x.checked_at >= coalesce(k.registered_at, e.registered_at)) AS registry_check`;

export async function findEventByKey(
  db: Queryable,
  organisationId: string,
  key: string,
): Promise<{ id: string } | undefined> {
  const { rows } = await db.query<{ id: string }>(
    'SELECT id FROM pledge_events WHERE organisation_id = $1 AND event_key = $2',
    [organisationId, key],
  );
  return rows[0];
}

/** A notification's own content: what a correction may change, and what insertEvent stores. */
export interface EventContent {
  eventKey: string;
  registrationNumber: string | null;
  notificationDate: string;
  pledgor: PledgeParty;
  pledgorName: string;
  pledgorIdentifier: string;
  pledgee: PledgeParty;
  pledgeeName: string;
  contract: { name: string | null; number: string; date: string; endDate: string | null };
  vehicles: VehicleJson[];
}

/** The content's 14 parameters, in the column order event_key … vins. */
const contentParams = (values: EventContent) => [
  values.eventKey,
  values.registrationNumber,
  values.notificationDate,
  values.pledgor,
  values.pledgorName,
  values.pledgorIdentifier,
  values.pledgee,
  values.pledgeeName,
  values.contract.name,
  values.contract.number,
  values.contract.date,
  values.contract.endDate,
  JSON.stringify(values.vehicles),
  values.vehicles.map((v) => v.vin).filter((vin): vin is string => Boolean(vin)),
];

export async function insertEvent(
  db: Queryable,
  values: EventContent & {
    organisationId: string;
    pledgeId: string;
    kind: PledgeEventKind;
    source: 'form' | 'upload';
    uploadId: string | null;
    rowNumber: number | null;
    packageId: string | null;
    userId: string | null;
  },
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO pledge_events (organisation_id, pledge_id, kind, event_key, registration_number, notification_date,
       pledgor, pledgor_name, pledgor_identifier, pledgee, pledgee_name, contract_name, contract_number,
       contract_date, contract_end_date, vehicles, vins, source, upload_id, row_number, package_id, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)
     RETURNING id`,
    [
      values.organisationId,
      values.pledgeId,
      values.kind,
      ...contentParams(values),
      values.source,
      values.uploadId,
      values.rowNumber,
      values.packageId,
      values.userId,
    ],
  );
  return rows[0]!.id;
}

/**
 * New content of a corrected event; it leaves a rejected package (the rejection row keeps the link).
 * The correction is kept in the event's corrections, so every corrector stays a maker.
 */
export async function updateEventContent(
  db: Queryable,
  id: string,
  values: EventContent & { userId: string },
): Promise<void> {
  await db.query(
    `UPDATE pledge_events SET event_key = $2, registration_number = $3, notification_date = $4, pledgor = $5,
       pledgor_name = $6, pledgor_identifier = $7, pledgee = $8, pledgee_name = $9, contract_name = $10,
       contract_number = $11, contract_date = $12, contract_end_date = $13, vehicles = $14, vins = $15,
       corrected_by = $16, corrected_at = now(), package_id = NULL, notification_id = gen_random_uuid()
     WHERE id = $1`,
    [id, ...contentParams(values), values.userId],
  );
  await db.query('INSERT INTO pledge_event_corrections (event_id, corrected_by) VALUES ($1, $2)', [
    id,
    values.userId,
  ]);
}

export async function lockEvent(db: Queryable, organisationId: string, id: string): Promise<void> {
  await db.query('SELECT 1 FROM pledge_events WHERE organisation_id = $1 AND id = $2 FOR UPDATE', [
    organisationId,
    id,
  ]);
}

export async function listEventsOfPledge(db: Queryable, pledgeId: string): Promise<EventRow[]> {
  const { rows } = await db.query<EventRow>(
    `SELECT ${EVENT_COLUMNS} FROM pledge_events e WHERE e.pledge_id = $1
      ORDER BY e.notification_date, (e.kind = 'exclusion'), e.created_at, e.id`,
    [pledgeId],
  );
  return rows;
}

export interface EventFilters {
  organisationId: string;
  kinds?: PledgeEventKind[];
  statuses?: EventSubmissionStatus[];
  pledgeStatuses?: PledgeStatus[];
  from?: string;
  to?: string;
  vin?: string;
  pledgor?: string;
  registrationNumber?: string;
  packageId?: string;
  lapsingWithinDays?: number;
  ids?: string[];
}

function eventWhere(filters: EventFilters): { sql: string; params: unknown[] } {
  const params: unknown[] = [filters.organisationId];
  const where = ['e.organisation_id = $1'];
  const add = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (filters.kinds?.length) {
    where.push(`e.kind = ANY(${add(filters.kinds)}::text[])`);
  }
  if (filters.statuses?.length) {
    const statuses = filters.statuses.filter((s) => s !== 'new');
    const parts: string[] = [];
    if (filters.statuses.includes('new')) {
      parts.push('e.package_id IS NULL');
    }
    if (statuses.length > 0) {
      parts.push(`k.status = ANY(${add(statuses)}::text[])`);
    }
    where.push(`(${parts.join(' OR ')})`);
  }
  if (filters.pledgeStatuses?.length) {
    where.push(`p.status = ANY(${add(filters.pledgeStatuses)}::text[])`);
  }
  if (filters.from) {
    where.push(`e.notification_date >= ${add(filters.from)}::date`);
  }
  if (filters.to) {
    where.push(`e.notification_date <= ${add(filters.to)}::date`);
  }
  if (filters.vin) {
    const vin = filters.vin.toUpperCase().replace(/\s+/g, '');
    if (vin.length === 17) {
      where.push(`e.vins @> ARRAY[${add(vin)}]::text[]`);
    } else {
      where.push(`array_to_string(e.vins, ' ') LIKE ${add(containsPattern(vin))}`);
    }
  }
  if (filters.pledgor) {
    where.push(
      `lower(e.pledgor_name || ' ' || e.pledgor_identifier) LIKE ${add(containsPattern(filters.pledgor.toLowerCase().replace(/\s+/g, ' ')))}`,
    );
  }
  if (filters.registrationNumber) {
    const pattern = add(containsPattern(filters.registrationNumber));
    where.push(
      `(e.registration_number LIKE ${pattern} OR e.registered_number LIKE ${pattern} OR p.registration_number LIKE ${pattern})`,
    );
  }
  if (filters.packageId) {
    // A rejected package still lists the events that have since gone into a new package.
    const id = add(filters.packageId);
    where.push(`(e.package_id = ${id}::uuid OR EXISTS (
      SELECT 1 FROM pledge_event_rejections r WHERE r.event_id = e.id AND r.package_id = ${id}::uuid))`);
  }
  if (filters.ids) {
    where.push(`e.id = ANY(${add(filters.ids)}::uuid[])`);
  }
  if (filters.lapsingWithinDays !== undefined) {
    where.push(`p.status <> 'excluded' AND p.contract_end_date IS NOT NULL
      AND p.contract_end_date BETWEEN current_date AND current_date + ${add(filters.lapsingWithinDays)}::int
      AND (p.registration_number IS NOT NULL OR EXISTS (
        SELECT 1 FROM pledge_events c JOIN pledge_packages cp ON cp.id = c.package_id
         WHERE c.pledge_id = p.id AND c.kind = 'creation' AND cp.status = 'registered'))`);
  }
  return { sql: where.join(' AND '), params };
}

export async function findEvents(
  db: Queryable,
  filters: EventFilters,
  page: { limit: number; offset: number },
): Promise<{ items: EventListRow[]; total: number }> {
  const { sql, params } = eventWhere(filters);
  const [list, count] = await Promise.all([
    db.query<EventListRow>(
      `SELECT ${EVENT_LIST_COLUMNS} FROM ${EVENT_LIST_FROM} WHERE ${sql}
        ORDER BY e.notification_date DESC, e.created_at DESC, e.id
        LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, page.limit, page.offset],
    ),
    db.query<{ total: number }>(`SELECT count(*)::int AS total FROM ${EVENT_LIST_FROM} WHERE ${sql}`, params),
  ]);
  return { items: list.rows, total: count.rows[0]!.total };
}

export async function getEvent(
  db: Queryable,
  organisationId: string,
  id: string,
): Promise<EventListRow | undefined> {
  const { items } = await findEvents(db, { organisationId, ids: [id] }, { limit: 1, offset: 0 });
  return items[0];
}

/** Every event of a package in a stable order (notification date, then creation), for the export. */
export async function listPackageEvents(
  db: Queryable,
  organisationId: string,
  packageId: string,
): Promise<EventListRow[]> {
  const { sql, params } = eventWhere({ organisationId, packageId });
  const { rows } = await db.query<EventListRow>(
    `SELECT ${EVENT_LIST_COLUMNS} FROM ${EVENT_LIST_FROM} WHERE ${sql}
      ORDER BY e.notification_date, e.created_at, e.id`,
    params,
  );
  return rows;
}
