import {
  type CreatePledgeEventResponse,
  EVENT_SUBMISSION_STATUS_LABELS,
  PACKAGE_ACTION_LABELS,
  type PackageHistoryEntry,
  PLEDGE_EVENT_FORMS,
  PLEDGE_EVENT_KIND_LABELS,
  PLEDGE_LAPSE_DAYS,
  PLEDGE_STATUS_LABELS,
  type PledgeEvent,
  type PledgeEventData,
  type PledgeEventDetail,
  type PledgeEventsResponse,
  type PledgeParty,
  partyName,
  type pledgeEventsQuerySchema,
} from '@pledgewatch/contract';
import type pg from 'pg';
import type { z } from 'zod';
import { withTransaction } from '../../db/pool.ts';
import { AppError } from '../../lib/app-error.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { recordAudit } from '../audit/index.ts';
import {
  type EventListRow,
  findEvents,
  getEvent,
  listEventsOfPledge,
  lockEvent,
} from './pledge-events.queries.ts';
import { listPackageHistory, type PackageHistoryRow } from './pledge-packages.queries.ts';
import { listEventRejections } from './pledge-registry.queries.ts';
import {
  applyPledgeEvent,
  correctAppliedEvent,
  isPledgeRuleError,
  type PledgeRuleError,
  sha256,
} from './pledge-registry.ts';

const DAY_MS = 86_400_000;

const todayIso = () => new Date().toISOString().slice(0, 10);

function partyOut(party: PledgeParty) {
  return { ...party, name: partyName(party) };
}

/** The lapse warning: a registered, live pledge whose contract term ends within PLEDGE_LAPSE_DAYS. */
function lapseOf(row: EventListRow): PledgeEvent['lapse'] {
  const endsOn = row.pledge_contract_end_date;
  if (!endsOn || !row.pledge_registered || row.pledge_status === 'excluded') {
    return null;
  }
  const daysLeft = Math.round((Date.parse(endsOn) - Date.parse(todayIso())) / DAY_MS);
  return daysLeft >= 0 && daysLeft <= PLEDGE_LAPSE_DAYS ? { endsOn, daysLeft } : null;
}

/** The registry's results rejected this notification in the package it is still in (no number given). */
const isRejectedInPackage = (
  row: Pick<EventListRow, 'package_id' | 'package_status' | 'last_rejection' | 'registered_number'>,
) =>
  row.package_id !== null &&
  row.package_status === 'sent' &&
  row.registered_number === null &&
  row.last_rejection?.packageId === row.package_id;

/**
 * A notification may be corrected while no package holds it, after the registry rejected its
 * package, or after the registry's results rejected it alone.
 */
const isCorrectable = (
  row: Pick<EventListRow, 'package_id' | 'package_status' | 'last_rejection' | 'registered_number'>,
) => row.package_status === null || row.package_status === 'rejected' || isRejectedInPackage(row);

export function toPledgeEvent(row: EventListRow): PledgeEvent {
  const status = isRejectedInPackage(row) ? 'rejected' : (row.package_status ?? 'new');
  return {
    id: row.id,
    kind: row.kind,
    kindLabel: PLEDGE_EVENT_KIND_LABELS[row.kind],
    form: PLEDGE_EVENT_FORMS[row.kind],
    registrationNumber: row.registration_number,
    registeredNumber: row.registered_number,
    notificationDate: row.notification_date,
    pledgor: partyOut(row.pledgor),
    pledgee: partyOut(row.pledgee),
    contract: {
      name: row.contract_name,
      number: row.contract_number,
      date: row.contract_date,
      endDate: row.contract_end_date,
    },
    vehicles: row.vehicles,
    source: row.source,
    uploadId: row.upload_id,
    rowNumber: row.row_number,
    pledge: {
      id: row.pledge_id,
      status: row.pledge_status,
      statusLabel: PLEDGE_STATUS_LABELS[row.pledge_status],
      registrationNumber: row.pledge_registration_number,
    },
    package:
      row.package_id && row.package_number !== null && row.package_status
        ? {
            id: row.package_id,
            number: row.package_number,
            name: row.package_name ?? '',
            status: row.package_status,
          }
        : null,
    status,
    statusLabel: EVENT_SUBMISSION_STATUS_LABELS[status],
    lapse: lapseOf(row),
    lastRejection: row.last_rejection
      ? { ...row.last_rejection, rejectedAt: new Date(row.last_rejection.rejectedAt).toISOString() }
      : null,
    canCorrect: isCorrectable(row),
    correctedAt: row.corrected_at?.toISOString() ?? null,
    notificationId: row.notification_id,
    registeredAt: row.registered_at?.toISOString() ?? null,
    registryCheck: row.registry_check
      ? { checkedAt: new Date(row.registry_check.checkedAt).toISOString(), found: row.registry_check.found }
      : null,
    createdBy: row.created_by ? { id: row.created_by, fullName: row.author_name ?? '' } : null,
    createdAt: row.created_at.toISOString(),
  };
}

export function toHistoryEntry(row: PackageHistoryRow): PackageHistoryEntry {
  return {
    action: row.action,
    actionLabel: PACKAGE_ACTION_LABELS[row.action as keyof typeof PACKAGE_ACTION_LABELS] ?? row.action,
    fromStatus: row.from_status,
    toStatus: row.to_status,
    comment: row.comment,
    user: row.user_id ? { id: row.user_id, fullName: row.user_name ?? '' } : null,
    createdAt: row.created_at.toISOString(),
  };
}

export function ruleErrorToAppError(error: PledgeRuleError): AppError {
  return new AppError(error.reason === 'unknown' ? 'PLEDGE_UNKNOWN' : 'PLEDGE_CONFLICT', {
    message: error.message,
    fieldErrors: error.field ? [{ field: error.field, message: error.message }] : undefined,
  });
}

/**
 * One notification entered by hand: applied to the registry in one transaction (the event, the
 * pledge's new state, the monitoring items) and written to the audit log. An exclusion needs an admin.
 */
export async function createPledgeEvent(options: {
  db: pg.Pool;
  auth: AuthContext;
  event: PledgeEventData;
}): Promise<CreatePledgeEventResponse> {
  const { auth, event } = options;
  if (event.kind === 'exclusion' && auth.role !== 'admin') {
    throw new AppError('PLEDGE_EXCLUSION_ADMIN_ONLY');
  }
  const result = await withTransaction(options.db, async (tx) => {
    let outcome: Awaited<ReturnType<typeof applyPledgeEvent>>;
    try {
      outcome = await applyPledgeEvent(
        tx,
        { organisationId: auth.organisationId, userId: auth.userId, source: 'form' },
        event,
      );
    } catch (error) {
      throw isPledgeRuleError(error) ? ruleErrorToAppError(error) : error;
    }
    if (outcome.outcome === 'duplicate') {
      throw new AppError('PLEDGE_EVENT_DUPLICATE');
    }
    await recordAudit(tx, {
      organisationId: auth.organisationId,
      userId: auth.userId,
      action: `pledge.${event.kind}`,
      entity: 'pledge_event',
      entityId: outcome.eventId,
      details: {
        pledgeId: outcome.pledgeId,
        registrationNumber: event.registrationNumber,
        contractNumber: event.contract.number,
        monitoringAdded: outcome.added,
        monitoringArchived: outcome.archived,
      },
    });
    return outcome;
  });
  return eventResponse(options.db, auth.organisationId, result.eventId, event, result);
}

/** The answer to a notification entered or corrected: the event as listed, its warnings, monitoring. */
async function eventResponse(
  db: pg.Pool,
  organisationId: string,
  eventId: string,
  event: PledgeEventData,
  monitoring: { added: number; archived: number },
): Promise<CreatePledgeEventResponse> {
  const row = (await getEvent(db, organisationId, eventId))!;
  return {
    event: toPledgeEvent(row),
    warnings: event.vehicles.map((v) => v.warning).filter((w): w is string => Boolean(w)),
    monitoring: { added: monitoring.added, archived: monitoring.archived },
  };
}

export async function findPledgeEvents(options: {
  db: pg.Pool;
  auth: AuthContext;
  query: z.output<typeof pledgeEventsQuerySchema>;
}): Promise<PledgeEventsResponse> {
  const { query } = options;
  const { items, total } = await findEvents(
    options.db,
    {
      organisationId: options.auth.organisationId,
      kinds: query.kind,
      statuses: query.status,
      pledgeStatuses: query.pledgeStatus,
      from: query.from,
      to: query.to,
      vin: query.vin || undefined,
      pledgor: query.pledgor || undefined,
      registrationNumber: query.registrationNumber || undefined,
      packageId: query.packageId,
      lapsingWithinDays: query.lapsing ? PLEDGE_LAPSE_DAYS : undefined,
    },
    { limit: query.pageSize, offset: (query.page - 1) * query.pageSize },
  );
  return { items: items.map(toPledgeEvent), total };
}

/** One event with the history of its pledge (every notification in date order) and of its package. */
export async function getPledgeEvent(options: {
  db: pg.Pool;
  auth: AuthContext;
  eventId: string;
}): Promise<PledgeEventDetail> {
  const row = await getEvent(options.db, options.auth.organisationId, options.eventId);
  if (!row) {
    throw new AppError('PLEDGE_EVENT_NOT_FOUND');
  }
  const siblings = await listEventsOfPledge(options.db, row.pledge_id);
  const { items: siblingRows } = await findEvents(
    options.db,
    { organisationId: options.auth.organisationId, ids: siblings.map((s) => s.id) },
    { limit: siblings.length, offset: 0 },
  );
  const order = new Map(siblings.map((s, index) => [s.id, index]));
  const packageHistory = row.package_id ? await listPackageHistory(options.db, row.package_id) : [];
  const rejections = await listEventRejections(options.db, row.id);
  return {
    ...toPledgeEvent(row),
    pledgeHistory: siblingRows
      .sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0))
      .map((sibling) => {
        const event = toPledgeEvent(sibling);
        return {
          id: event.id,
          kind: event.kind,
          kindLabel: event.kindLabel,
          notificationDate: event.notificationDate,
          status: event.status,
          statusLabel: event.statusLabel,
          createdAt: event.createdAt,
        };
      }),
    packageHistory: packageHistory.map(toHistoryEntry),
    rejections: rejections.map((r) => ({
      packageId: r.package_id,
      packageNumber: r.package_number,
      reason: r.reason,
      rejectedAt: r.rejected_at.toISOString(),
      rejectedBy: r.rejected_by ? { id: r.rejected_by, fullName: r.rejected_by_name ?? '' } : null,
    })),
  };
}

/**
 * Corrects a notification the registry has not accepted yet: one in no package, or one whose
 * package was rejected (it leaves that package and is «Не в пакете» again, ready for a new package;
 * the rejection stays in its history). The pledge is folded again in the same transaction, with
 * monitoring and an audit row holding the content before and after.
 */
export async function correctPledgeEvent(options: {
  db: pg.Pool;
  auth: AuthContext;
  eventId: string;
  event: PledgeEventData;
  /**
   * Called in the transaction with the package the corrected notification left, when it was still
   * sent (the registry's results rejected it alone): the package may now be wholly numbered.
   */
  settlePackage?: (tx: pg.PoolClient, packageId: string) => Promise<void>;
}): Promise<CreatePledgeEventResponse> {
  const { auth, event } = options;
  if (event.kind === 'exclusion' && auth.role !== 'admin') {
    throw new AppError('PLEDGE_EXCLUSION_ADMIN_ONLY');
  }
  const result = await withTransaction(options.db, async (tx) => {
    await lockEvent(tx, auth.organisationId, options.eventId);
    const old = await getEvent(tx, auth.organisationId, options.eventId);
    if (!old) {
      throw new AppError('PLEDGE_EVENT_NOT_FOUND');
    }
    if (!isCorrectable(old)) {
      throw new AppError('PLEDGE_EVENT_NOT_CORRECTABLE', {
        message: `Исправить можно уведомление без пакета или с отказом реестра: пакет № ${old.package_number} в статусе «${EVENT_SUBMISSION_STATUS_LABELS[old.package_status ?? 'new']}»`,
      });
    }
    if (sha256(toPledgeEventData(old)) === sha256(correctionContent(event))) {
      throw new AppError('PLEDGE_CORRECTION_UNCHANGED');
    }
    let outcome: { added: number; archived: number };
    try {
      outcome = await correctAppliedEvent(
        tx,
        { organisationId: auth.organisationId, userId: auth.userId },
        old,
        event,
      );
    } catch (error) {
      throw isPledgeRuleError(error) ? ruleErrorToAppError(error) : error;
    }
    await recordAudit(tx, {
      organisationId: auth.organisationId,
      userId: auth.userId,
      action: 'pledge.corrected',
      entity: 'pledge_event',
      entityId: old.id,
      details: {
        pledgeId: old.pledge_id,
        rejectedPackageId: old.package_status === 'rejected' ? old.package_id : null,
        before: toPledgeEventData(old),
        after: correctionContent(event),
        monitoringAdded: outcome.added,
        monitoringArchived: outcome.archived,
      },
    });
    if (old.package_id && old.package_status === 'sent') {
      await options.settlePackage?.(tx, old.package_id);
    }
    return outcome;
  });
  return eventResponse(options.db, auth.organisationId, options.eventId, event, result);
}

/** A correction's content as stored (the VIN warnings are not content). */
const correctionContent = (event: PledgeEventData) => ({
  ...event,
  vehicles: event.vehicles.map(({ warning: _w, ...v }) => v),
});

/** The content of a stored notification, for the audit row of a correction (same shape as above). */
function toPledgeEventData(row: EventListRow) {
  return {
    kind: row.kind,
    registrationNumber: row.registration_number,
    notificationDate: row.notification_date,
    pledgor: row.pledgor,
    pledgee: row.pledgee,
    contract: {
      name: row.contract_name,
      number: row.contract_number,
      date: row.contract_date,
      endDate: row.contract_end_date,
    },
    vehicles: row.vehicles,
  };
}
