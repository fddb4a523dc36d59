/** Pledge packages' lifecycle: listing, creating, changing their events and moving them through statuses. */
import {
  PACKAGE_STATUS_LABELS,
  type PackageAction,
  type PackageStatus,
  type PledgePackage,
  type PledgePackageDetail,
  type PledgePackagesResponse,
} from '@pledgewatch/contract';
import type pg from 'pg';
import { type Queryable, withTransaction } from '../../db/pool.ts';
import type { JobQueue } from '../../jobs/job-definition.ts';
import { recheckItemsMessage } from '../../jobs/recheck-items-message.ts';
import { AppError } from '../../lib/app-error.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { recordAudit } from '../audit/index.ts';
import {
  addPackageHistory,
  assignEvents,
  findPackages,
  getPackage,
  insertPackage,
  listPackageHistory,
  listPackageVins,
  type PackageRow,
  releaseEvents,
  updatePackageStatus,
} from './pledge-packages.queries.ts';
import { packageOutcome, recordRejections } from './pledge-registry.queries.ts';
import { toHistoryEntry } from './pledges.service.ts';

export function toPackage(row: PackageRow, auth: AuthContext): PledgePackage {
  const approveBlockedReason = approvalBlock(row, auth);
  return {
    id: row.id,
    number: row.number,
    name: row.name,
    origin: row.origin,
    uploadId: row.upload_id,
    status: row.status,
    statusLabel: PACKAGE_STATUS_LABELS[row.status],
    eventsCount: row.events_count,
    registeredCount: row.registered_count,
    kinds: row.kinds,
    createdBy: row.created_by ? { id: row.created_by, fullName: row.created_by_name ?? '' } : null,
    approvedBy: row.approved_by ? { id: row.approved_by, fullName: row.approved_by_name ?? '' } : null,
    approvedAt: row.approved_at?.toISOString() ?? null,
    sentAt: row.sent_at?.toISOString() ?? null,
    registeredAt: row.registered_at?.toISOString() ?? null,
    rejectionReason: row.rejection_reason,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    canApprove: approveBlockedReason === null,
    approveBlockedReason,
  };
}

export async function requirePackage(
  db: Queryable,
  auth: AuthContext,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<PackageRow> {
  const row = await getPackage(db, auth.organisationId, id, options);
  if (!row) {
    throw new AppError('PLEDGE_PACKAGE_NOT_FOUND');
  }
  return row;
}

export const wrongStatus = (row: PackageRow, what: string) =>
  new AppError('PLEDGE_PACKAGE_WRONG_STATUS', {
    message: `${what}: пакет «${row.name}» сейчас в статусе «${PACKAGE_STATUS_LABELS[row.status]}»`,
  });

const SECOND_PERSON =
  'Одобрить его должен другой сотрудник — тот, кто не создавал пакет, не вносил и не исправлял его уведомления и не менял его состав';

/**
 * Maker-checker: why this user may not approve the package, or null when they may. The checker is
 * neither the package's creator, nor the author of any of its events, nor anyone who ever corrected
 * one of them (every correction counts, not only the latest), nor anyone who added or removed its
 * events (the package history's content actions).
 */
export function makerCheckerBlock(row: PackageRow, auth: AuthContext): string | null {
  if (row.created_by === auth.userId) {
    return `Вы создали этот пакет. ${SECOND_PERSON}`;
  }
  if (row.event_authors.includes(auth.userId)) {
    return `В пакете есть уведомления, которые внесли вы. ${SECOND_PERSON}`;
  }
  if (row.event_correctors.includes(auth.userId)) {
    return `В пакете есть уведомления, которые вы исправляли. ${SECOND_PERSON}`;
  }
  if (row.content_editors.includes(auth.userId)) {
    return `Вы меняли состав пакета (добавляли или убирали уведомления). ${SECOND_PERSON}`;
  }
  return null;
}

/** Why the current user may not approve the package now (status, role, maker-checker), or null. */
function approvalBlock(row: PackageRow, auth: AuthContext): string | null {
  if (row.status !== 'draft') {
    return `Одобрить можно только черновик: пакет в статусе «${PACKAGE_STATUS_LABELS[row.status]}»`;
  }
  if (auth.role === 'viewer') {
    return 'Одобрять пакеты могут администратор и аналитик';
  }
  if (row.events_count === 0) {
    return 'В пакете нет ни одного события';
  }
  return makerCheckerBlock(row, auth);
}

export async function findPledgePackages(options: {
  db: pg.Pool;
  auth: AuthContext;
  page: number;
  pageSize: number;
  status?: PackageStatus[];
}): Promise<PledgePackagesResponse> {
  const { items, total } = await findPackages(options.db, {
    organisationId: options.auth.organisationId,
    statuses: options.status,
    limit: options.pageSize,
    offset: (options.page - 1) * options.pageSize,
  });
  return { items: items.map((row) => toPackage(row, options.auth)), total };
}

export async function getPledgePackage(options: {
  db: Queryable;
  auth: AuthContext;
  packageId: string;
}): Promise<PledgePackageDetail> {
  const row = await requirePackage(options.db, options.auth, options.packageId);
  const history = await listPackageHistory(options.db, row.id);
  return {
    ...toPackage(row, options.auth),
    history: history.map(toHistoryEntry),
  };
}

function notFreeError(notFree: string[]) {
  return new AppError('PLEDGE_EVENTS_NOT_FREE', {
    message: `События уже в другом пакете или не найдены: ${notFree.length}. Обновите список и выберите события без пакета`,
  });
}

/** A package of events chosen by hand; the events must be in no other package. */
export async function createPledgePackage(options: {
  db: pg.Pool;
  auth: AuthContext;
  name?: string;
  eventIds: string[];
}): Promise<PledgePackageDetail> {
  const { auth } = options;
  const eventIds = [...new Set(options.eventIds.map((id) => id.toLowerCase()))];
  return withTransaction(options.db, async (tx) => {
    const created = await insertPackage(tx, {
      organisationId: auth.organisationId,
      name: options.name || null,
      origin: 'manual',
      uploadId: null,
      userId: auth.userId,
    });
    const { notFree } = await assignEvents(tx, auth.organisationId, created.id, eventIds);
    if (notFree.length > 0) {
      throw notFreeError(notFree);
    }
    await addPackageHistory(tx, {
      packageId: created.id,
      action: 'created',
      fromStatus: null,
      toStatus: 'draft',
      comment: `Событий: ${eventIds.length}`,
      userId: auth.userId,
    });
    await recordAudit(tx, {
      organisationId: auth.organisationId,
      userId: auth.userId,
      action: 'pledge_package.created',
      entity: 'pledge_package',
      entityId: created.id,
      details: { events: eventIds.length },
    });
    return getPledgePackage({ db: tx, auth, packageId: created.id });
  });
}

/** The package of an upload's events, created by the import (its author is the uploader). */
export async function createUploadPackage(
  tx: Queryable,
  options: {
    organisationId: string;
    userId: string | null;
    uploadId: string;
    fileName: string;
    eventIds: string[];
  },
): Promise<string | null> {
  if (options.eventIds.length === 0) {
    return null;
  }
  const created = await insertPackage(tx, {
    organisationId: options.organisationId,
    name: `Файл «${options.fileName}»`.slice(0, 200),
    origin: 'upload',
    uploadId: options.uploadId,
    userId: options.userId,
  });
  await assignEvents(tx, options.organisationId, created.id, options.eventIds);
  await addPackageHistory(tx, {
    packageId: created.id,
    action: 'created',
    fromStatus: null,
    toStatus: 'draft',
    comment: `Из загрузки файла, событий: ${options.eventIds.length}`,
    userId: options.userId,
  });
  return created.id;
}

/** Adds or removes events of a draft package. */
export async function changePackageEvents(options: {
  db: pg.Pool;
  auth: AuthContext;
  packageId: string;
  eventIds: string[];
  remove: boolean;
}): Promise<PledgePackageDetail> {
  const { auth } = options;
  const eventIds = [...new Set(options.eventIds.map((id) => id.toLowerCase()))];
  return withTransaction(options.db, async (tx) => {
    const row = await requirePackage(tx, auth, options.packageId, { forUpdate: true });
    if (row.status !== 'draft') {
      throw wrongStatus(row, 'Состав можно менять только у черновика');
    }
    let count: number;
    if (options.remove) {
      count = await releaseEvents(tx, auth.organisationId, row.id, eventIds);
    } else {
      const result = await assignEvents(tx, auth.organisationId, row.id, eventIds);
      if (result.notFree.length > 0) {
        throw notFreeError(result.notFree);
      }
      count = result.moved;
    }
    await addPackageHistory(tx, {
      packageId: row.id,
      action: options.remove ? 'events_removed' : 'events_added',
      fromStatus: 'draft',
      toStatus: 'draft',
      comment: `Событий: ${count}`,
      userId: auth.userId,
    });
    await recordAudit(tx, {
      organisationId: auth.organisationId,
      userId: auth.userId,
      action: options.remove ? 'pledge_package.events_removed' : 'pledge_package.events_added',
      entity: 'pledge_package',
      entityId: row.id,
      details: { events: count },
    });
    return getPledgePackage({ db: tx, auth, packageId: row.id });
  });
}

/**
 * Once the registry registered a package, its vehicles are checked again at once (a run over those
 * VINs only), so the items show the registry's confirmation without waiting for the next regular
 * run. Queued in the transition's transaction: no registration without its check, and no check of
 * a registration that rolled back.
 */
async function queueVehicleRecheck(
  tx: Queryable,
  queue: JobQueue,
  organisationId: string,
  packageId: string,
) {
  const identifiers = await listPackageVins(tx, packageId);
  if (identifiers.length > 0) {
    await queue.send(
      recheckItemsMessage,
      { organisationId, reason: 'pledge_registered', identifiers },
      { db: tx, singletonKey: `pledge-package:${packageId}` },
    );
  }
}

/**
 * After the registry's answers: a sent package whose every notification has its number becomes
 * registered (its vehicles checked again), one whose every notification was rejected becomes
 * rejected; a mixed one stays sent, its rejected notifications open for correction.
 */
export async function settlePackage(
  tx: Queryable,
  queue: JobQueue,
  auth: AuthContext,
  packageId: string,
): Promise<void> {
  const row = await requirePackage(tx, auth, packageId, { forUpdate: true });
  if (row.status !== 'sent') {
    return;
  }
  const outcome = await packageOutcome(tx, row.id);
  const to =
    outcome.total > 0 && outcome.numbered === outcome.total
      ? ('registered' as const)
      : outcome.total > 0 && outcome.rejected === outcome.total
        ? ('rejected' as const)
        : null;
  if (!to) {
    return;
  }
  await updatePackageStatus(tx, row.id, {
    status: to,
    stamp: to === 'registered' ? 'registered_at' : null,
    rejectionReason: to === 'rejected' ? outcome.reason : undefined,
  });
  if (to === 'registered') {
    await queueVehicleRecheck(tx, queue, auth.organisationId, row.id);
  }
  const comment =
    to === 'registered' ? 'Все уведомления получили номера' : 'Реестр отказал во всех уведомлениях';
  await addPackageHistory(tx, {
    packageId: row.id,
    action: to === 'registered' ? 'register' : 'reject',
    fromStatus: 'sent',
    toStatus: to,
    comment,
    userId: auth.userId,
  });
  await recordAudit(tx, {
    organisationId: auth.organisationId,
    userId: auth.userId,
    action: `pledge_package.${to === 'registered' ? 'register' : 'reject'}`,
    entity: 'pledge_package',
    entityId: row.id,
    details: { from: 'sent', to, comment },
  });
}

const TRANSITIONS: Record<PackageAction, { from: PackageStatus; to: PackageStatus; what: string }> = {
  approve: { from: 'draft', to: 'ready', what: 'Одобрить можно только черновик' },
  return: { from: 'ready', to: 'draft', what: 'Вернуть в черновик можно только готовый пакет' },
  send: { from: 'ready', to: 'sent', what: 'Отправить можно только одобренный пакет' },
  register: {
    from: 'sent',
    to: 'registered',
    what: 'Отметить регистрацию можно только у отправленного пакета',
  },
  reject: { from: 'sent', to: 'rejected', what: 'Отметить отказ можно только у отправленного пакета' },
};

/**
 * Moves a package through its lifecycle. Approval (draft → ready) is the checker's step: a second
 * person, not the package's author. Every move is kept in the package history and the audit log.
 */
export async function transitionPackage(options: {
  db: pg.Pool;
  /** Registration queues a check of the package's vehicles. */
  queue: JobQueue;
  auth: AuthContext;
  packageId: string;
  action: PackageAction;
  comment?: string;
}): Promise<PledgePackageDetail> {
  const { auth, action } = options;
  const transition = TRANSITIONS[action];
  const comment = options.comment?.trim() || null;
  return withTransaction(options.db, async (tx) => {
    const row = await requirePackage(tx, auth, options.packageId, { forUpdate: true });
    if (row.status !== transition.from) {
      throw wrongStatus(row, transition.what);
    }
    if (action === 'approve') {
      const blocked = makerCheckerBlock(row, auth);
      if (blocked) {
        throw new AppError('PLEDGE_PACKAGE_SAME_PERSON', { message: blocked });
      }
      if (row.events_count === 0) {
        throw new AppError('PLEDGE_PACKAGE_WRONG_STATUS', { message: 'В пакете нет ни одного события' });
      }
    }
    // Registered means numbered: the registry gives every notification it registers a number.
    if (action === 'register' && row.registered_count < row.events_count) {
      throw new AppError('PLEDGE_PACKAGE_WRONG_STATUS', {
        message: `Зарегистрированным пакет становится, когда у каждого уведомления есть номер: без номера ${row.events_count - row.registered_count} из ${row.events_count}. Загрузите результаты реестра или внесите номера`,
      });
    }
    if (action === 'reject' && !comment) {
      throw new AppError('VALIDATION_FAILED', {
        fieldErrors: [{ field: 'comment', message: 'Укажите причину отказа' }],
      });
    }
    await updatePackageStatus(tx, row.id, {
      status: transition.to,
      approvedBy: action === 'approve' ? auth.userId : undefined,
      stamp:
        action === 'approve'
          ? 'approved_at'
          : action === 'send'
            ? 'sent_at'
            : action === 'register'
              ? 'registered_at'
              : null,
      rejectionReason: action === 'reject' ? comment : undefined,
      clearApproval: action === 'return',
    });
    if (action === 'register') {
      await queueVehicleRecheck(tx, options.queue, auth.organisationId, row.id);
    }
    // The rejection is kept per event, so it outlives the events going into a new package.
    const rejected = action === 'reject' ? await recordRejections(tx, row.id, comment, auth.userId) : 0;
    await addPackageHistory(tx, {
      packageId: row.id,
      action,
      fromStatus: row.status,
      toStatus: transition.to,
      comment,
      userId: auth.userId,
    });
    await recordAudit(tx, {
      organisationId: auth.organisationId,
      userId: auth.userId,
      action: `pledge_package.${action}`,
      entity: 'pledge_package',
      entityId: row.id,
      details: { from: row.status, to: transition.to, comment, ...(action === 'reject' ? { rejected } : {}) },
    });
    return getPledgePackage({ db: tx, auth, packageId: row.id });
  });
}
