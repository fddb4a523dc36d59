/** A package's export: the notifications as JSON, XLSX or the registry's archive. */
import {
  DOCUMENT_TYPE_LABELS,
  neutralise,
  PACKAGE_STATUS_LABELS,
  PLEDGE_EVENT_FORMS,
  PLEDGE_EVENT_KIND_FORM_LABELS,
  type PledgeEvent,
} from '@pledgewatch/contract';
import ExcelJS from 'exceljs';
import type pg from 'pg';
import { AppError } from '../../lib/app-error.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import {
  excelWallClock,
  headerFitWidth,
  tableSheetOptions,
  XLSX_DATE_FORMATS,
} from '../../lib/tabular/xlsx-layout.ts';
import { recordAudit } from '../audit/index.ts';
import { listPackageEvents } from './pledge-events.queries.ts';
import type { PackageRow } from './pledge-packages.queries.ts';
import { requirePackage, wrongStatus } from './pledge-packages.service.ts';
import { ruDate } from './pledge-registry.ts';
import { toPledgeEvent } from './pledges.service.ts';
import { notificationXml, validateNotification } from './registry-xml/notification-xml.ts';
import { writeZip } from './registry-xml/zip.ts';

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
  { header: 'Вид', width: 16, value: (e) => PLEDGE_EVENT_KIND_FORM_LABELS[e.kind] },
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

/** «Уведомление о возникновении (УЗ1) от 01.03.2025, договор № ДЗ-1»: which notification a message is about. */
const notificationTitle = (event: PledgeEvent) =>
  `${event.kindLabel} (${event.form}) от ${ruDate(event.notificationDate)}, договор № ${event.contract.number}`;

/**
 * The package for the registry: a ZIP with one `<NotificationId>.xml` per notification, in the
 * registry's format 2.3, ready to sign. Only an approved package leaves (maker-checker), and only
 * when every notification passes the format's rules; otherwise the answer lists each one and field.
 */
function registryArchive(row: PackageRow, events: PledgeEvent[]): Buffer {
  if (row.status === 'draft') {
    throw wrongStatus(row, 'Выгрузить для реестра можно одобренный пакет');
  }
  const fieldErrors = events.flatMap((event) =>
    validateNotification(event).map((issue) => ({
      field: `${event.id}:${issue.path}`,
      message: `${notificationTitle(event)}: ${issue.field} — ${issue.message}`,
    })),
  );
  if (fieldErrors.length > 0) {
    throw new AppError('PLEDGE_EXPORT_INVALID', {
      message: `Пакет не выгружен: уведомлений с ошибками — ${new Set(fieldErrors.map((e) => e.field.split(':')[0])).size} из ${events.length}. Исправьте их и выгрузите снова`,
      fieldErrors,
    });
  }
  return writeZip(
    events.map((event) => ({
      name: `${event.notificationId}.xml`,
      data: Buffer.from(notificationXml(event), 'utf8'),
    })),
  );
}

/**
 * The package as a file: the registry's XML (a ZIP), JSON to submit (layout in docs/pledges.md) or XLSX for people, whose
 * «Присвоенный номер» column can be filled in and imported back.
 */
export async function exportPackage(options: {
  db: pg.Pool;
  auth: AuthContext;
  packageId: string;
  format: 'json' | 'xlsx' | 'xml';
}): Promise<{ fileName: string; contentType: string; body: Buffer }> {
  const { auth } = options;
  const row = await requirePackage(options.db, auth, options.packageId);
  const events = (await listPackageEvents(options.db, auth.organisationId, row.id)).map(toPledgeEvent);
  const registryFile = options.format === 'xml' ? registryArchive(row, events) : null;
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
  if (registryFile) {
    return { fileName: `${base}-реестр.zip`, contentType: 'application/zip', body: registryFile };
  }
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
