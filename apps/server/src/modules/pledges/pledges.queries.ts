// Over 500 lines by design: the SQL query catalogue of the pledges module (events, pledges, packages), SQL only.
import type {
  EventSubmissionStatus,
  PackageStatus,
  PledgeEventKind,
  PledgeParty,
  PledgeStatus,
} from '@pledgewatch/contract';
import { itemLastCheckedSql } from '../../db/item-last-check.ts';
import type { Queryable } from '../../db/pool.ts';

export interface VehicleJson {
  vin: string | null;
  bodyNumber: string | null;
  chassisNumber: string | null;
  description: string | null;
}

export interface PledgeRow {
  id: string;
  organisation_id: string;
  registration_number: string | null;
  status: PledgeStatus;
  contract_name: string | null;
  contract_number: string;
  contract_date: string;
  contract_end_date: string | null;
  pledgor: PledgeParty;
  pledgor_name: string;
  pledgor_document_type: string;
  pledgor_identifier: string;
  pledgee: PledgeParty;
  pledgee_name: string;
  vehicles: VehicleJson[];
  created_on: string;
  last_notification_date: string;
  excluded_on: string | null;
}

const PLEDGE_COLUMNS = `id, organisation_id, registration_number, status, contract_name, contract_number,
  contract_date::text, contract_end_date::text, pledgor, pledgor_name, pledgor_document_type, pledgor_identifier,
  pledgee, pledgee_name, vehicles, created_on::text, last_notification_date::text, excluded_on::text`;

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

export async function findPledgeByNumber(
  db: Queryable,
  organisationId: string,
  registrationNumber: string,
): Promise<PledgeRow | undefined> {
  const { rows } = await db.query<PledgeRow>(
    `SELECT ${PLEDGE_COLUMNS} FROM pledges WHERE organisation_id = $1 AND registration_number = $2 FOR UPDATE`,
    [organisationId, registrationNumber],
  );
  return rows[0];
}

/** Pledges of the organisation under this contract number that hold one of the VINs; live ones first. */
export async function findPledgesByContractVins(
  db: Queryable,
  organisationId: string,
  contractNumber: string,
  vins: string[],
): Promise<PledgeRow[]> {
  if (vins.length === 0) {
    return [];
  }
  const { rows } = await db.query<PledgeRow>(
    `SELECT ${PLEDGE_COLUMNS} FROM pledges p
      WHERE organisation_id = $1 AND lower(contract_number) = lower($2)
        AND EXISTS (SELECT 1 FROM pledge_vehicles v WHERE v.pledge_id = p.id AND v.vin = ANY($3::text[]))
      ORDER BY (status = 'excluded'), created_on DESC
      FOR UPDATE`,
    [organisationId, contractNumber, vins],
  );
  return rows;
}

export async function insertPledge(
  db: Queryable,
  values: {
    organisationId: string;
    registrationNumber: string | null;
    contractNumber: string;
    contractDate: string;
    createdOn: string;
    pledgor: PledgeParty;
    pledgorName: string;
    pledgorDocumentType: string;
    pledgorIdentifier: string;
    pledgee: PledgeParty;
    pledgeeName: string;
  },
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO pledges (organisation_id, registration_number, contract_number, contract_date, created_on,
       last_notification_date, pledgor, pledgor_name, pledgor_document_type, pledgor_identifier, pledgee, pledgee_name)
     VALUES ($1, $2, $3, $4, $5, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
    [
      values.organisationId,
      values.registrationNumber,
      values.contractNumber,
      values.contractDate,
      values.createdOn,
      values.pledgor,
      values.pledgorName,
      values.pledgorDocumentType,
      values.pledgorIdentifier,
      values.pledgee,
      values.pledgeeName,
    ],
  );
  return rows[0]!.id;
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

/** The VINs of a package's notifications, for checking them again once it is registered. */
export async function listPackageVins(db: Queryable, packageId: string): Promise<string[]> {
  const { rows } = await db.query<{ vin: string }>(
    'SELECT DISTINCT unnest(vins) AS vin FROM pledge_events WHERE package_id = $1 ORDER BY 1',
    [packageId],
  );
  return rows.map((row) => row.vin);
}

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

export async function listEventsOfPledge(db: Queryable, pledgeId: string): Promise<EventRow[]> {
  const { rows } = await db.query<EventRow>(
    `SELECT ${EVENT_COLUMNS} FROM pledge_events e WHERE e.pledge_id = $1
      ORDER BY e.notification_date, (e.kind = 'exclusion'), e.created_at, e.id`,
    [pledgeId],
  );
  return rows;
}

export async function getPledge(db: Queryable, pledgeId: string): Promise<PledgeRow | undefined> {
  const { rows } = await db.query<PledgeRow>(`SELECT ${PLEDGE_COLUMNS} FROM pledges WHERE id = $1`, [
    pledgeId,
  ]);
  return rows[0];
}

/** Writes the pledge's folded state and replaces its vehicle rows. */
export async function savePledgeState(
  db: Queryable,
  pledge: Omit<PledgeRow, 'organisation_id'> & { organisation_id: string },
): Promise<void> {
  await db.query(
    `UPDATE pledges SET registration_number = $2, status = $3, contract_name = $4, contract_number = $5,
       contract_date = $6, contract_end_date = $7, pledgor = $8, pledgor_name = $9, pledgor_document_type = $10,
       pledgor_identifier = $11, pledgee = $12, pledgee_name = $13, vehicles = $14, created_on = $15,
       last_notification_date = $16, excluded_on = $17, updated_at = now()
     WHERE id = $1`,
    [
      pledge.id,
      pledge.registration_number,
      pledge.status,
      pledge.contract_name,
      pledge.contract_number,
      pledge.contract_date,
      pledge.contract_end_date,
      pledge.pledgor,
      pledge.pledgor_name,
      pledge.pledgor_document_type,
      pledge.pledgor_identifier,
      pledge.pledgee,
      pledge.pledgee_name,
      JSON.stringify(pledge.vehicles),
      pledge.created_on,
      pledge.last_notification_date,
      pledge.excluded_on,
    ],
  );
  await db.query('DELETE FROM pledge_vehicles WHERE pledge_id = $1', [pledge.id]);
  await db.query(
    `INSERT INTO pledge_vehicles (pledge_id, organisation_id, position, vin, body_number, chassis_number, description)
     SELECT $1, $2, x.ord, x.vin, x.body_number, x.chassis_number, x.description
       FROM unnest($3::text[], $4::text[], $5::text[], $6::text[]) WITH ORDINALITY
         AS x (vin, body_number, chassis_number, description, ord)`,
    [
      pledge.id,
      pledge.organisation_id,
      pledge.vehicles.map((v) => v.vin),
      pledge.vehicles.map((v) => v.bodyNumber),
      pledge.vehicles.map((v) => v.chassisNumber),
      pledge.vehicles.map((v) => v.description),
    ],
  );
}

/**
 * Archives the organisation's items for these VINs and documents that a pledge put on monitoring
 * (origin `pledge`), unless another live pledge of the organisation still holds them. An item the
 * user put on monitoring by form or file before the pledge keeps its origin and stays: an exclusion
 * takes away only what the pledge brought. Returns how many items went to the archive.
 */
export async function archiveUnpledgedItems(
  db: Queryable,
  organisationId: string,
  vins: string[],
  documents: { documentType: string; identifier: string }[],
): Promise<number> {
  if (vins.length === 0 && documents.length === 0) {
    return 0;
  }
  const { rowCount } = await db.query(
    `UPDATE monitoring_items m SET status = 'archived', archived_at = now(), updated_at = now()
      WHERE m.organisation_id = $1 AND m.status <> 'archived' AND m.origin = 'pledge'
        AND (
          (m.kind = 'vin' AND m.identifier = ANY($2::text[]) AND NOT EXISTS (
             SELECT 1 FROM pledge_vehicles v JOIN pledges p ON p.id = v.pledge_id
              WHERE v.organisation_id = $1 AND v.vin = m.identifier AND p.status <> 'excluded'))
          OR
          (m.kind = 'document' AND (m.document_type, m.identifier) IN (
             SELECT * FROM unnest($3::text[], $4::text[])) AND NOT EXISTS (
             SELECT 1 FROM pledges p WHERE p.organisation_id = $1 AND p.status <> 'excluded'
                AND p.pledgor_document_type = m.document_type AND p.pledgor_identifier = m.identifier))
        )`,
    [organisationId, vins, documents.map((d) => d.documentType), documents.map((d) => d.identifier)],
  );
  return rowCount ?? 0;
}

// ─── Registry table ─────────────────────────────────────────────────────────────────────────

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

const likeEscape = (value: string) => value.replace(/[\\%_]/g, (char) => `\\${char}`);

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
      where.push(`array_to_string(e.vins, ' ') LIKE ${add(`%${likeEscape(vin)}%`)}`);
    }
  }
  if (filters.pledgor) {
    where.push(
      `lower(e.pledgor_name || ' ' || e.pledgor_identifier) LIKE ${add(`%${likeEscape(filters.pledgor.toLowerCase().replace(/\s+/g, ' '))}%`)}`,
    );
  }
  if (filters.registrationNumber) {
    const pattern = add(`%${likeEscape(filters.registrationNumber)}%`);
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

// ─── Packages ───────────────────────────────────────────────────────────────────────────────

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
