import { createHash } from 'node:crypto';
import {
  PLEDGE_EVENT_KIND_LABELS,
  type PledgeEventData,
  type PledgeParty,
  partyIdentifier,
  partyName,
} from '@pledgewatch/contract';
import type { Queryable } from '../../db/pool.ts';
import { upsertItems } from '../monitoring/index.ts';
import {
  type EventContent,
  type EventRow,
  findEventByKey,
  insertEvent,
  listEventsOfPledge,
  updateEventContent,
} from './pledge-events.queries.ts';
import {
  archiveUnpledgedItems,
  findPledgeByNumber,
  findPledgesByContractVins,
  getPledge,
  insertPledge,
  type PledgeRow,
  savePledgeState,
  type VehicleJson,
} from './pledges.queries.ts';

/** A notification the registry cannot accept as it stands, with the reason for the user. */
export class PledgeRuleError extends Error {
  readonly field: string | null;
  /** unknown: the change or exclusion names no pledge the registry knows; conflict: the state forbids it. */
  readonly reason: 'unknown' | 'conflict';

  constructor(message: string, field: string | null, reason: 'unknown' | 'conflict') {
    super(message);
    this.name = 'PledgeRuleError';
    this.field = field;
    this.reason = reason;
  }
}

export const isPledgeRuleError = (error: unknown): error is PledgeRuleError =>
  error instanceof PledgeRuleError;

/** JSON with sorted keys, so equal content always hashes the same. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) {
    return `[${value.map(stableJson).join(',')}]`;
  }
  if (value && typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export const sha256 = (value: unknown) => createHash('sha256').update(stableJson(value)).digest('hex');

const vehicleJson = (vehicles: PledgeEventData['vehicles']): VehicleJson[] =>
  vehicles.map((v) => ({
    vin: v.vin,
    bodyNumber: v.bodyNumber,
    chassisNumber: v.chassisNumber,
    description: v.description,
  }));

/** The stored content of a notification. */
const eventContent = (event: PledgeEventData, key: string): EventContent => ({
  eventKey: key,
  registrationNumber: event.registrationNumber,
  notificationDate: event.notificationDate,
  pledgor: event.pledgor,
  pledgorName: partyName(event.pledgor),
  pledgorIdentifier: partyIdentifier(event.pledgor).identifier,
  pledgee: event.pledgee,
  pledgeeName: partyName(event.pledgee),
  contract: event.contract,
  vehicles: vehicleJson(event.vehicles),
});

const partyKey = (party: PledgeParty) => ({ type: party.type, ...partyIdentifier(party) });

/**
 * The natural key of a notification: its kind, date, pledge reference, contract, the parties'
 * identifiers and the vehicles. The same notification entered twice (a file uploaded again, a form
 * sent twice) has the same key and becomes one event.
 */
export function pledgeEventKey(event: PledgeEventData): string {
  return sha256({
    kind: event.kind,
    date: event.notificationDate,
    number: event.registrationNumber,
    contract: {
      number: event.contract.number.toLowerCase(),
      date: event.contract.date,
      end: event.contract.endDate,
    },
    pledgor: partyKey(event.pledgor),
    pledgee: partyKey(event.pledgee),
    vehicles: vehicleJson(event.vehicles)
      .map((v) => `${v.vin ?? ''}|${v.bodyNumber ?? ''}|${v.chassisNumber ?? ''}`)
      .sort(),
  });
}

export interface ApplyContext {
  organisationId: string;
  userId: string | null;
  source: 'form' | 'upload';
  uploadId?: string | null;
  rowNumber?: number | null;
  packageId?: string | null;
}

export type ApplyOutcome =
  | { outcome: 'inserted'; eventId: string; pledgeId: string; added: number; archived: number }
  | { outcome: 'duplicate'; eventId: string };

const describe = (pledge: PledgeRow) =>
  pledge.registration_number
    ? `№ ${pledge.registration_number}`
    : `по договору № ${pledge.contract_number} от ${ruDate(pledge.contract_date)}`;

export const ruDate = (iso: string) => iso.split('-').reverse().join('.');

/** Finds the pledge a change or an exclusion refers to, or says why it cannot be found. */
async function resolvePledge(
  tx: Queryable,
  organisationId: string,
  event: PledgeEventData,
): Promise<PledgeRow> {
  const kindLabel = PLEDGE_EVENT_KIND_LABELS[event.kind].toLowerCase();
  if (event.registrationNumber) {
    const pledge = await findPledgeByNumber(tx, organisationId, event.registrationNumber);
    if (!pledge) {
      throw new PledgeRuleError(
        `Залог с регистрационным номером ${event.registrationNumber} не найден в реестре: ${kindLabel} невозможно. Сначала внесите уведомление о возникновении этого залога`,
        'registrationNumber',
        'unknown',
      );
    }
    return pledge;
  }
  const vins = event.vehicles.map((v) => v.vin).filter((vin): vin is string => Boolean(vin));
  const [pledge] = await findPledgesByContractVins(tx, organisationId, event.contract.number, vins);
  if (!pledge) {
    throw new PledgeRuleError(
      `Залог по договору № ${event.contract.number} с VIN ${vins.join(', ')} не найден в реестре: ${kindLabel} невозможно. Укажите регистрационный номер залога или сначала внесите уведомление о возникновении`,
      'registrationNumber',
      'unknown',
    );
  }
  return pledge;
}

/** The pledge's state after all its events, in order of notification date (exclusions last on a day). */
async function foldPledge(tx: Queryable, pledge: PledgeRow): Promise<PledgeRow> {
  const events = await listEventsOfPledge(tx, pledge.id);
  let state: PledgeRow = { ...pledge };
  for (const event of events) {
    if (event.kind === 'exclusion') {
      state = { ...state, status: 'excluded', excluded_on: event.notification_date };
    } else {
      state = {
        ...state,
        status: event.kind === 'creation' ? 'active' : 'changed',
        contract_name: event.contract_name,
        contract_number: event.contract_number,
        contract_date: event.contract_date,
        contract_end_date: event.contract_end_date,
        pledgor: event.pledgor,
        pledgor_name: event.pledgor_name,
        pledgor_document_type: partyIdentifier(event.pledgor).documentType,
        pledgor_identifier: partyIdentifier(event.pledgor).identifier,
        pledgee: event.pledgee,
        pledgee_name: event.pledgee_name,
        vehicles: event.vehicles,
        excluded_on: null,
      };
      if (event.kind === 'creation') {
        state.created_on = event.notification_date;
        state.registration_number ??= event.registration_number;
      }
    }
    state.last_notification_date = event.notification_date;
  }
  return state;
}

/** A creation must not repeat a pledge the registry holds (its number, or its contract and a VIN). */
async function checkCreation(
  tx: Queryable,
  organisationId: string,
  event: PledgeEventData,
  ownPledgeId: string | null,
): Promise<void> {
  const vins = event.vehicles.map((v) => v.vin).filter((vin): vin is string => Boolean(vin));
  const numbered = event.registrationNumber
    ? await findPledgeByNumber(tx, organisationId, event.registrationNumber)
    : undefined;
  if (numbered && numbered.id !== ownPledgeId) {
    throw new PledgeRuleError(
      `Залог с регистрационным номером ${event.registrationNumber} уже есть в реестре: для него подайте уведомление об изменении или исключении`,
      'registrationNumber',
      'conflict',
    );
  }
  const live = (await findPledgesByContractVins(tx, organisationId, event.contract.number, vins)).find(
    (pledge) => pledge.status !== 'excluded' && pledge.id !== ownPledgeId,
  );
  if (live) {
    throw new PledgeRuleError(
      `По договору № ${event.contract.number} уже есть действующий залог на это ТС (${describe(live)}): подайте уведомление об изменении`,
      'contract.number',
      'conflict',
    );
  }
}

/** A change or an exclusion must name a live pledge and not predate its creation. */
function checkReference(pledge: PledgeRow, event: PledgeEventData): void {
  if (pledge.status === 'excluded') {
    throw new PledgeRuleError(
      `Залог ${describe(pledge)} уже исключён из реестра ${pledge.excluded_on ? ruDate(pledge.excluded_on) : ''}`.trim(),
      'registrationNumber',
      'conflict',
    );
  }
  if (event.notificationDate < pledge.created_on) {
    throw new PledgeRuleError(
      `Дата уведомления ${ruDate(event.notificationDate)} раньше возникновения залога (${ruDate(pledge.created_on)})`,
      'notificationDate',
      'conflict',
    );
  }
}

/**
 * Puts the pledge's vehicles and pledgor on monitoring while it is live, and archives what the
 * pledge held before and no longer holds (all of it on exclusion).
 */
async function syncMonitoring(
  tx: Queryable,
  context: Pick<ApplyContext, 'organisationId' | 'userId' | 'uploadId'>,
  previous: PledgeRow,
  after: PledgeRow,
): Promise<{ added: number; archived: number }> {
  const { organisationId } = context;
  let added = 0;
  if (after.status !== 'excluded') {
    const label = (v: VehicleJson) => v.description?.slice(0, 200) ?? null;
    const upserted = await upsertItems(tx, {
      organisationId,
      userId: context.userId,
      origin: 'pledge',
      uploadId: context.uploadId ?? null,
      rows: [
        ...after.vehicles
          .filter((v) => v.vin)
          .map((v) => ({
            kind: 'vin' as const,
            documentType: null,
            identifier: v.vin!,
            label: label(v),
            contractNumber: after.contract_number.slice(0, 100),
            pledgorName: after.pledgor_name.slice(0, 300),
            warning: null,
          })),
        {
          kind: 'document' as const,
          documentType: after.pledgor_document_type as 'inn',
          identifier: after.pledgor_identifier,
          label: 'Залогодатель',
          contractNumber: after.contract_number.slice(0, 100),
          pledgorName: after.pledgor_name.slice(0, 300),
          warning: null,
        },
      ],
    });
    added = upserted.length;
  }
  const keptVins = new Set(after.status === 'excluded' ? [] : after.vehicles.map((v) => v.vin));
  const droppedVins = previous.vehicles
    .map((v) => v.vin)
    .filter((vin): vin is string => Boolean(vin) && !keptVins.has(vin));
  const droppedDocuments =
    after.status === 'excluded' || previous.pledgor_identifier !== after.pledgor_identifier
      ? [{ documentType: previous.pledgor_document_type, identifier: previous.pledgor_identifier }]
      : [];
  const archived = await archiveUnpledgedItems(tx, organisationId, droppedVins, droppedDocuments);
  return { added, archived };
}

/**
 * Applies one notification to the registry inside the caller's transaction: checks it against the
 * pledge it names, records the event, folds the pledge's state again in date order, and puts the
 * vehicles and the pledgor's document on monitoring (creation, change) or archives them (exclusion).
 * Rule failures throw PledgeRuleError before anything is written for the event.
 */
export async function applyPledgeEvent(
  tx: Queryable,
  context: ApplyContext,
  event: PledgeEventData,
): Promise<ApplyOutcome> {
  const { organisationId } = context;
  const key = pledgeEventKey(event);
  const existing = await findEventByKey(tx, organisationId, key);
  if (existing) {
    return { outcome: 'duplicate', eventId: existing.id };
  }
  const pledgor = partyIdentifier(event.pledgor);

  let pledgeId: string;
  let before: PledgeRow | null = null;
  if (event.kind === 'creation') {
    await checkCreation(tx, organisationId, event, null);
    pledgeId = await insertPledge(tx, {
      organisationId,
      registrationNumber: event.registrationNumber,
      contractNumber: event.contract.number,
      contractDate: event.contract.date,
      createdOn: event.notificationDate,
      pledgor: event.pledgor,
      pledgorName: partyName(event.pledgor),
      pledgorDocumentType: pledgor.documentType,
      pledgorIdentifier: pledgor.identifier,
      pledgee: event.pledgee,
      pledgeeName: partyName(event.pledgee),
    });
  } else {
    before = await resolvePledge(tx, organisationId, event);
    checkReference(before, event);
    pledgeId = before.id;
  }

  const eventId = await insertEvent(tx, {
    organisationId,
    pledgeId,
    kind: event.kind,
    ...eventContent(event, key),
    source: context.source,
    uploadId: context.uploadId ?? null,
    rowNumber: context.rowNumber ?? null,
    packageId: context.packageId ?? null,
    userId: context.userId,
  });

  const current = (await getPledge(tx, pledgeId))!;
  const after = await foldPledge(tx, current);
  await savePledgeState(tx, after);

  const { added, archived } = await syncMonitoring(tx, context, before ?? current, after);
  return { outcome: 'inserted', eventId, pledgeId, added, archived };
}

/**
 * Corrects a notification in place (same id, so its history and rejections stay with it): the new
 * content must keep its kind and name the same pledge, must not repeat another notification, and the
 * pledge is folded again with monitoring brought in line. The caller checks who may correct what.
 */
export async function correctAppliedEvent(
  tx: Queryable,
  context: { organisationId: string; userId: string },
  old: EventRow,
  event: PledgeEventData,
): Promise<{ added: number; archived: number }> {
  const { organisationId } = context;
  if (event.kind !== old.kind) {
    throw new PledgeRuleError(
      'Вид уведомления при исправлении не меняется: внесите новое уведомление нужного вида',
      'kind',
      'conflict',
    );
  }
  const key = pledgeEventKey(event);
  const existing = await findEventByKey(tx, organisationId, key);
  if (existing && existing.id !== old.id) {
    throw new PledgeRuleError('Такое уведомление уже есть в реестре', null, 'conflict');
  }
  const previous = (await getPledge(tx, old.pledge_id))!;
  if (event.kind === 'creation') {
    await checkCreation(tx, organisationId, event, previous.id);
  } else {
    const named = await resolvePledge(tx, organisationId, event);
    if (named.id !== previous.id) {
      throw new PledgeRuleError(
        `Исправленное уведомление должно относиться к тому же залогу (${describe(previous)}). Для другого залога внесите новое уведомление`,
        'registrationNumber',
        'conflict',
      );
    }
    // The pledge may be excluded by this very notification: only the date rule applies here.
    checkReference({ ...named, status: 'active' }, event);
  }
  await updateEventContent(tx, old.id, { ...eventContent(event, key), userId: context.userId });
  // A creation's own number is the pledge's number; a corrected one replaces it.
  const base =
    event.kind === 'creation' && previous.registration_number === old.registration_number
      ? { ...previous, registration_number: event.registrationNumber }
      : previous;
  const after = await foldPledge(tx, base);
  await savePledgeState(tx, after);
  return syncMonitoring(tx, { ...context, uploadId: null }, previous, after);
}
