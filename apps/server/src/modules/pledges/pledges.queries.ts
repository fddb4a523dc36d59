// SQL of pledges themselves: their folded state, vehicles and the items a pledge put on monitoring.
import type { PledgeParty, PledgeStatus } from '@pledgewatch/contract';
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
