import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DOCUMENT_TYPE_LABELS,
  neutralise,
  PACKAGE_STATUS_LABELS,
  type PackageAction,
  type PackageStatus,
  PLEDGE_EVENT_FORMS,
  type PledgeEvent,
  type PledgePackage,
  type PledgePackageDetail,
  type PledgePackagesResponse,
  type RegistrationNumbersResponse,
  validateRegistrationNumber,
} from '@pledgewatch/contract';
import ExcelJS from 'exceljs';
import type pg from 'pg';
import type { AppConfig } from '../../config/env.ts';
import { type Queryable, withTransaction } from '../../db/pool.ts';
import { AppError } from '../../lib/app-error.ts';
import {
  excelWallClock,
  headerFitWidth,
  tableSheetOptions,
  XLSX_DATE_FORMATS,
} from '../../lib/tabular/xlsx-layout.ts';
import type { AuthContext } from '../../plugins/auth.ts';
import { recordAudit } from '../audit/audit.queries.ts';
import { normaliseHeader } from '../uploads/kinds/upload-kind.ts';
import { openRowSource } from '../uploads/reader/open-row-source.ts';
import { isUploadFileError } from '../uploads/reader/upload-file-error.ts';
import { ruDate } from './pledge-registry.ts';
import {
  addPackageHistory,
  assignEvents,
  findNumberOwners,
  findPackages,
  getPackage,
  insertPackage,
  listPackageEvents,
  listPackageHistory,
  type PackageRow,
  releaseEvents,
  setRegisteredNumbers,
  updatePackageStatus,
} from './pledges.queries.ts';
import { toHistoryEntry, toPledgeEvent } from './pledges.service.ts';

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

async function requirePackage(
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

const wrongStatus = (row: PackageRow, what: string) =>
  new AppError('PLEDGE_PACKAGE_WRONG_STATUS', {
    message: `${what}: пакет «${row.name}» сейчас в статусе «${PACKAGE_STATUS_LABELS[row.status]}»`,
  });

const SECOND_PERSON =
  'Одобрить его должен другой сотрудник — тот, кто не создавал пакет, не вносил его уведомления и не менял его состав';

/**
 * Maker-checker: why this user may not approve the package, or null when they may. The checker is
 * neither the package's creator, nor the author of any of its events, nor anyone who added or
 * removed its events (the package history's content actions).
 */
export function makerCheckerBlock(row: PackageRow, auth: AuthContext): string | null {
  if (row.created_by === auth.userId) {
    return `Вы создали этот пакет. ${SECOND_PERSON}`;
  }
  if (row.event_authors.includes(auth.userId)) {
    return `В пакете есть уведомления, которые внесли вы. ${SECOND_PERSON}`;
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
      details: { from: row.status, to: transition.to, comment },
    });
    return getPledgePackage({ db: tx, auth, packageId: row.id });
  });
}

/**
 * Registration numbers the registry gave the package's notifications (sent or registered packages).
 * A creation's number becomes its pledge's number, which puts the pledge in the public registry
 * that the `pledges` check source reads.
 */
export async function saveRegistrationNumbers(options: {
  db: pg.Pool;
  auth: AuthContext;
  packageId: string;
  items: { eventId: string; registeredNumber: string; row?: number }[];
  rejected?: { row: number; message: string }[];
}): Promise<RegistrationNumbersResponse> {
  const { auth } = options;
  const rejected = [...(options.rejected ?? [])];
  return withTransaction(options.db, async (tx) => {
    const row = await requirePackage(tx, auth, options.packageId, { forUpdate: true });
    if (row.status !== 'sent' && row.status !== 'registered') {
      throw wrongStatus(
        row,
        'Регистрационные номера вносятся для отправленного или зарегистрированного пакета',
      );
    }
    const seen = new Map<string, number>();
    const items: typeof options.items = [];
    options.items.forEach((item, index) => {
      const rowNumber = item.row ?? index + 1;
      const first = seen.get(item.registeredNumber);
      if (first !== undefined) {
        rejected.push({
          row: rowNumber,
          message: `Номер ${item.registeredNumber} уже указан в строке ${first}`,
        });
        return;
      }
      seen.set(item.registeredNumber, rowNumber);
      items.push({ ...item, eventId: item.eventId.toLowerCase(), row: rowNumber });
    });
    const owners = await findNumberOwners(
      tx,
      auth.organisationId,
      items.map((item) => item.registeredNumber),
    );
    const events = new Map(
      (await listPackageEvents(tx, auth.organisationId, row.id)).map((event) => [event.id, event]),
    );
    const accepted = items.filter((item) => {
      const event = events.get(item.eventId);
      if (!event) {
        rejected.push({ row: item.row!, message: 'Уведомление не найдено в этом пакете' });
        return false;
      }
      const owner = owners.find((o) => o.registration_number === item.registeredNumber);
      if (event.kind === 'creation' && owner && owner.pledge_id !== event.pledge_id) {
        rejected.push({
          row: item.row!,
          message: `Номер ${item.registeredNumber} уже присвоен другому залогу организации`,
        });
        return false;
      }
      return true;
    });
    const { updated } =
      accepted.length > 0
        ? await setRegisteredNumbers(tx, auth.organisationId, row.id, accepted)
        : { updated: 0 };
    if (updated > 0) {
      await addPackageHistory(tx, {
        packageId: row.id,
        action: 'numbers',
        fromStatus: row.status,
        toStatus: row.status,
        comment: `Номеров: ${updated}`,
        userId: auth.userId,
      });
      await recordAudit(tx, {
        organisationId: auth.organisationId,
        userId: auth.userId,
        action: 'pledge_package.registration_numbers',
        entity: 'pledge_package',
        entityId: row.id,
        details: { updated },
      });
    }
    rejected.sort((a, b) => a.row - b.row);
    const fresh = (await getPackage(tx, auth.organisationId, row.id))!;
    return { updated, rejected, package: toPackage(fresh, auth) };
  });
}

const ID_HEADERS = ['id уведомления', 'id события', 'id', 'идентификатор', 'идентификатор уведомления'];
const NUMBER_HEADERS = [
  'регистрационный номер',
  'присвоенный номер',
  'номер регистрации',
  'рег номер',
  'registered number',
];

/**
 * Registration numbers from a file (CSV or XLSX, as the package's XLSX export lays it out): the
 * columns «ID уведомления» and «Присвоенный номер». Bad rows are reported, good rows are saved.
 */
export async function importRegistrationNumbers(options: {
  db: pg.Pool;
  auth: AuthContext;
  config: Pick<AppConfig, 'dataDir' | 'uploadMaxUnzippedBytes'>;
  packageId: string;
  file: Readable;
}): Promise<RegistrationNumbersResponse> {
  const dir = path.join(options.config.dataDir, 'uploads');
  await mkdir(dir, { recursive: true });
  const filePath = path.join(dir, `numbers-${randomUUID()}`);
  const items: { eventId: string; registeredNumber: string; row: number }[] = [];
  const rejected: { row: number; message: string }[] = [];
  try {
    await pipeline(options.file, createWriteStream(filePath));
    if ((options.file as Readable & { truncated?: boolean }).truncated) {
      throw new AppError('UPLOAD_TOO_LARGE');
    }
    const source = await openRowSource(filePath, { maxUnzippedBytes: options.config.uploadMaxUnzippedBytes });
    try {
      let idIndex = -1;
      let numberIndex = -1;
      for await (const row of source.rows()) {
        if (row.values.every((value) => value.trim() === '')) {
          continue;
        }
        if (idIndex < 0) {
          const headers = row.values.map(normaliseHeader);
          idIndex = headers.findIndex((h) => ID_HEADERS.includes(h));
          numberIndex = headers.findIndex((h) => NUMBER_HEADERS.includes(h));
          if (idIndex < 0 || numberIndex < 0) {
            throw new AppError('UPLOAD_INVALID_FILE', {
              message:
                'В первой строке файла нужны столбцы «ID уведомления» и «Присвоенный номер» (как в выгрузке пакета XLSX)',
            });
          }
          continue;
        }
        const id = (row.values[idIndex] ?? '').trim();
        const numberText = (row.values[numberIndex] ?? '').trim();
        if (numberText === '') {
          continue;
        }
        if (!/^[0-9a-f-]{36}$/i.test(id)) {
          rejected.push({ row: row.rowNumber, message: 'ID уведомления: неверный идентификатор' });
          continue;
        }
        const number = validateRegistrationNumber(numberText);
        if (!number.ok) {
          rejected.push({ row: row.rowNumber, message: number.error });
          continue;
        }
        items.push({ eventId: id, registeredNumber: number.value, row: row.rowNumber });
      }
    } finally {
      await source.close();
    }
  } catch (error) {
    if (isUploadFileError(error)) {
      throw new AppError('UPLOAD_INVALID_FILE', { message: error.message });
    }
    throw error;
  } finally {
    await rm(filePath, { force: true });
  }
  if (items.length === 0 && rejected.length === 0) {
    throw new AppError('UPLOAD_INVALID_FILE', { message: 'В файле нет ни одного регистрационного номера' });
  }
  return saveRegistrationNumbers({ ...options, items, rejected });
}

// ─── Export ─────────────────────────────────────────────────────────────────────────────────

function notificationJson(event: PledgeEvent) {
  const party = (p: PledgeEvent['pledgor']) =>
    p.type === 'company'
      ? { type: 'company', name: p.name, inn: p.inn, ogrn: p.ogrn }
      : {
          type: 'individual',
          lastName: p.lastName,
          firstName: p.firstName,
          middleName: p.middleName ?? null,
          birthDate: p.birthDate,
          document: {
            type: p.documentType,
            typeName: DOCUMENT_TYPE_LABELS[p.documentType!],
            number: p.documentNumber,
          },
        };
  return {
    id: event.id,
    kind: event.kind,
    form: PLEDGE_EVENT_FORMS[event.kind],
    notificationDate: event.notificationDate,
    pledgeRegistrationNumber: event.registrationNumber ?? event.pledge.registrationNumber,
    registeredNumber: event.registeredNumber,
    pledgors: [party(event.pledgor)],
    pledgees: [party(event.pledgee)],
    contract: event.contract,
    property: event.vehicles.map((v) => ({
      type: 'vehicle',
      vin: v.vin,
      bodyNumber: v.bodyNumber,
      chassisNumber: v.chassisNumber,
      description: v.description,
    })),
  };
}

const XLSX_COLUMNS: { header: string; width: number; value: (e: PledgeEvent) => string }[] = [
  { header: 'ID уведомления', width: 38, value: (e) => e.id },
  { header: 'Вид', width: 16, value: (e) => `${e.kindLabel} (${PLEDGE_EVENT_FORMS[e.kind]})` },
  { header: 'Дата уведомления', width: 16, value: (e) => ruDate(e.notificationDate) },
  {
    header: 'Рег. номер залога',
    width: 22,
    value: (e) => e.registrationNumber ?? e.pledge.registrationNumber ?? '',
  },
  { header: 'Залогодатель', width: 32, value: (e) => e.pledgor.name },
  {
    header: 'Документ залогодателя',
    width: 28,
    value: (e) =>
      e.pledgor.type === 'company'
        ? `ИНН ${e.pledgor.inn}, ОГРН ${e.pledgor.ogrn}`
        : `${DOCUMENT_TYPE_LABELS[e.pledgor.documentType!]} ${e.pledgor.documentNumber}, д.р. ${ruDate(e.pledgor.birthDate ?? '')}`,
  },
  { header: 'Залогодержатель', width: 32, value: (e) => e.pledgee.name },
  {
    header: 'Договор',
    width: 30,
    value: (e) =>
      `${e.contract.name ? `${e.contract.name} ` : ''}№ ${e.contract.number} от ${ruDate(e.contract.date)}${e.contract.endDate ? `, срок до ${ruDate(e.contract.endDate)}` : ''}`,
  },
  {
    header: 'Транспортные средства',
    width: 48,
    value: (e) =>
      e.vehicles
        .map((v) =>
          [
            v.vin && `VIN ${v.vin}`,
            v.bodyNumber && `кузов ${v.bodyNumber}`,
            v.chassisNumber && `шасси ${v.chassisNumber}`,
            v.description,
          ]
            .filter(Boolean)
            .join(', '),
        )
        .join('\n'),
  },
  { header: 'Присвоенный номер', width: 22, value: (e) => e.registeredNumber ?? '' },
];

const XLSX_DATE_COLUMN = XLSX_COLUMNS.findIndex((c) => c.header === 'Дата уведомления') + 1;

/**
 * The package as a file: JSON to submit (layout in docs/pledges.md) or XLSX for people, whose
 * «Присвоенный номер» column can be filled in and imported back.
 */
export async function exportPackage(options: {
  db: pg.Pool;
  auth: AuthContext;
  packageId: string;
  format: 'json' | 'xlsx';
}): Promise<{ fileName: string; contentType: string; body: Buffer }> {
  const { auth } = options;
  const row = await requirePackage(options.db, auth, options.packageId);
  const events = (await listPackageEvents(options.db, auth.organisationId, row.id)).map(toPledgeEvent);
  const { rows: org } = await options.db.query<{ name: string }>(
    'SELECT name FROM organisations WHERE id = $1',
    [auth.organisationId],
  );
  const base = `пакет-${row.number}`;
  await recordAudit(options.db, {
    organisationId: auth.organisationId,
    userId: auth.userId,
    action: 'pledge_package.exported',
    entity: 'pledge_package',
    entityId: row.id,
    details: { format: options.format, events: events.length },
  });
  if (options.format === 'json') {
    const document = {
      format: 'pledgewatch.pledge-notifications',
      version: 1,
      exportedAt: new Date().toISOString(),
      applicant: { organisation: org[0]?.name ?? null },
      package: {
        id: row.id,
        number: row.number,
        name: row.name,
        status: row.status,
        approvedBy: row.approved_by_name,
        approvedAt: row.approved_at?.toISOString() ?? null,
      },
      notifications: events.map(notificationJson),
    };
    return {
      fileName: `${base}.json`,
      contentType: 'application/json; charset=utf-8',
      body: Buffer.from(JSON.stringify(document, null, 2)),
    };
  }
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Уведомления', tableSheetOptions(XLSX_COLUMNS.length));
  sheet.columns = XLSX_COLUMNS.map((c) => ({ header: c.header, width: headerFitWidth(c.header, c.width) }));
  sheet.getRow(1).font = { bold: true };
  for (const event of events) {
    // Users' text (names, contract numbers, descriptions) must not become formulas (CSV injection).
    const added = sheet.addRow(XLSX_COLUMNS.map((c) => neutralise(c.value(event))));
    added.alignment = { vertical: 'top', wrapText: true };
    // The notification date as a real Excel date.
    const date = excelWallClock(event.notificationDate);
    if (date) {
      added.getCell(XLSX_DATE_COLUMN).value = date;
      added.getCell(XLSX_DATE_COLUMN).numFmt = XLSX_DATE_FORMATS.date;
    }
  }
  const info = workbook.addWorksheet('Пакет');
  info.columns = [
    { header: 'Поле', width: 24 },
    { header: 'Значение', width: 48 },
  ];
  info.addRows(
    [
      ['Пакет', `№ ${row.number} · ${row.name}`],
      ['Статус', PACKAGE_STATUS_LABELS[row.status]],
      ['Организация', org[0]?.name ?? ''],
      ['Одобрил', row.approved_by_name ?? ''],
      ['Уведомлений', String(events.length)],
    ].map((cells) => cells.map(neutralise)),
  );
  return {
    fileName: `${base}.xlsx`,
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    body: Buffer.from(await workbook.xlsx.writeBuffer()),
  };
}
