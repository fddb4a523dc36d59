import {
  PLEDGE_EVENT_KIND_LABELS,
  PLEDGE_VEHICLES_MAX,
  type PledgeEventData,
  type PledgeParty,
  partyName,
  pledgeEventInputSchema,
  type UploadPreviewRow,
  unsupportedFormMessage,
} from '@pledgewatch/contract';
import { validateVin } from '@pledgewatch/identifiers';
import pg from 'pg';
import type { Queryable } from '../../db/pool.ts';
import { recordAudit } from '../audit/index.ts';
import { arrayLiteral, type RowProblem, UploadFileError, type UploadKindHandler } from '../uploads/index.ts';
import { COLUMNS, fieldOf, kindOf, rowToEventInput } from './pledge-events-columns.ts';
import { createUploadPackage } from './pledge-packages.service.ts';
import { applyPledgeEvent, isPledgeRuleError, ruDate, sha256 } from './pledge-registry.ts';

type EventFields = Omit<PledgeEventData, 'vehicles'>;

interface StagedGroup {
  group_key: string;
  first_row: number;
  rows: number[];
  event: EventFields;
  vehicles: {
    vin: string | null;
    body_number: string | null;
    chassis_number: string | null;
    description: string | null;
  }[];
}

/** The staged events of an upload in the order they apply: notification date, then first row. */
async function loadGroups(db: Queryable, uploadId: string): Promise<StagedGroup[]> {
  const { rows } = await db.query<StagedGroup>(
    `SELECT group_key, min(row_number)::int AS first_row, array_agg(row_number ORDER BY row_number) AS rows,
            (array_agg(event ORDER BY row_number))[1] AS event,
            json_agg(json_build_object('vin', vin, 'body_number', body_number, 'chassis_number', chassis_number,
                                       'description', description) ORDER BY row_number) AS vehicles
       FROM upload_pledge_event_rows WHERE upload_id = $1
      GROUP BY group_key
      ORDER BY min(event->>'notificationDate'), min(row_number)`,
    [uploadId],
  );
  return rows;
}

/** The group's event with its vehicles; a vehicle repeated in the group counts once. */
function groupEvent(group: StagedGroup): { event: PledgeEventData; repeatedRows: number } {
  const seen = new Set<string>();
  const vehicles: PledgeEventData['vehicles'] = [];
  for (const v of group.vehicles) {
    const id = `${v.vin ?? ''}|${v.body_number ?? ''}|${v.chassis_number ?? ''}`;
    if (seen.has(id)) {
      continue;
    }
    seen.add(id);
    vehicles.push({
      vin: v.vin,
      bodyNumber: v.body_number,
      chassisNumber: v.chassis_number,
      description: v.description,
      warning: null,
    });
  }
  return { event: { ...group.event, vehicles }, repeatedRows: group.vehicles.length - vehicles.length };
}

async function uploaderOf(db: Queryable, uploadId: string) {
  const { rows } = await db.query<{ role: string | null; file_name: string; created_by: string | null }>(
    `SELECT u.role, up.file_name, up.created_by FROM uploads up LEFT JOIN users u ON u.id = up.created_by WHERE up.id = $1`,
    [uploadId],
  );
  return rows[0];
}

/**
 * Runs `work` and undoes whatever it wrote: inside the caller's transaction through a savepoint, or
 * on a connection of its own when given the pool.
 */
async function dryRun(db: Queryable, work: (client: Queryable) => Promise<void>): Promise<void> {
  if (db instanceof pg.Pool) {
    const client = await db.connect();
    try {
      await client.query('BEGIN');
      await work(client);
    } finally {
      await client.query('ROLLBACK').catch(() => {});
      client.release();
    }
    return;
  }
  await db.query('SAVEPOINT pledge_dry_run');
  try {
    await work(db);
  } finally {
    await db.query('ROLLBACK TO SAVEPOINT pledge_dry_run');
    await db.query('RELEASE SAVEPOINT pledge_dry_run');
  }
}

const ADMIN_ONLY = 'Исключение залога может оформить только администратор организации';
const TOO_MANY = `В одном уведомлении не более ${PLEDGE_VEHICLES_MAX} транспортных средств`;

/** Why a group cannot be applied before the registry is even asked, or null. */
function precheck(group: StagedGroup, role: string | null | undefined): RowProblem | null {
  if (group.event.kind === 'exclusion' && role !== 'admin') {
    return { field: 'kind', message: ADMIN_ONLY };
  }
  if (group.vehicles.length > PLEDGE_VEHICLES_MAX) {
    return { field: 'vin', message: TOO_MANY };
  }
  return null;
}

/**
 * A row of the template's one notice (a person pledges two vehicles to a bank, then the contract is
 * extended): only the kind, the dates and the vehicle differ from row to row.
 */
const templateRow = (
  kind: string,
  notificationDate: string,
  contractEndDate: string,
  vin: string,
  description: string,
): string[] => [
  kind,
  '',
  notificationDate,
  'ФЛ',
  'Иванов',
  'Иван',
  'Иванович',
  '01.02.1980',
  'Паспорт РФ',
  '4506 123456',
  '',
  '',
  '',
  'ЮЛ',
  '',
  '',
  '',
  '',
  '',
  '',
  'ПАО Сбербанк',
  '7707083893',
  '1027700132195',
  'Договор залога',
  'ДЗ-2025/001',
  '15.01.2025',
  contractEndDate,
  vin,
  '',
  '',
  description,
];

/**
 * A file of pledge notifications (`/pledges/upload-events`, tab `table`): one row per vehicle, the
 * notification's fields repeated on each of its rows (docs/pledges.md). Rows are checked one by one
 * with the form's rules; whole events are then checked against the registry (a change or exclusion
 * must name a known pledge) in a rolled-back dry run, so the preview shows exactly what the import
 * will refuse. The import applies the events in date order in one transaction and puts them in a
 * new package.
 */
export const pledgeEventsUpload: UploadKindHandler = {
  kind: 'pledge_events',
  // The rules share this module with the registry's import (~1 s to load in the reader thread,
  // against ~0.2 s for the portfolio's own rules module); pledge files are small.
  rowRulesModule: { url: import.meta.url, exportName: 'pledgeEventsUpload' },
  columns: COLUMNS,
  keyFields: ['kind'],
  identifierFields: ['kind', 'vin', 'bodyNumber', 'chassisNumber'],
  missingHeaderMessage:
    'Не найдена строка заголовков: в первых 30 строках файла нужна строка со столбцом «Вид уведомления» ' +
    '(а также «Дата уведомления», столбцы залогодателя, залогодержателя, договора и «VIN»). Скачайте шаблон',
  templateRows: [
    templateRow('Возникновение', '15.01.2025', '15.01.2030', 'XTA210740Y1234565', 'LADA 2107, белый'),
    templateRow('Возникновение', '15.01.2025', '15.01.2030', 'Z94CB41AAER123456', 'Hyundai Solaris'),
    templateRow('Изменение', '20.02.2025', '15.01.2031', 'XTA210740Y1234565', 'LADA 2107, белый'),
  ],
  stagingTable: 'upload_pledge_event_rows',
  stagingColumns: [
    'group_key',
    'event',
    'vin',
    'body_number',
    'chassis_number',
    'description',
    'warning',
    'raw',
  ],

  looksLikeData(values) {
    return values.some(
      (value) =>
        validateVin(value).ok || kindOf(value) !== undefined || unsupportedFormMessage(value) !== null,
    );
  },

  validateRow(values) {
    // A bond-pledge form is never read as a change or an exclusion: the row says what it is.
    const unsupported = unsupportedFormMessage(values.kind ?? '');
    if (unsupported) {
      return { ok: false, problems: [{ field: 'kind', message: unsupported }] };
    }
    const parsed = pledgeEventInputSchema.safeParse(rowToEventInput(values));
    if (!parsed.success) {
      const problems: RowProblem[] = [];
      const seen = new Set<string>();
      for (const issue of parsed.error.issues) {
        if (!seen.has(issue.message)) {
          seen.add(issue.message);
          problems.push({ field: fieldOf(issue.path), message: issue.message });
        }
      }
      return { ok: false, problems };
    }
    const { vehicles, ...event } = parsed.data;
    const vehicle = vehicles[0]!;
    return {
      ok: true,
      copyFields: [
        sha256(event),
        JSON.stringify(event),
        vehicle.vin,
        vehicle.bodyNumber,
        vehicle.chassisNumber,
        vehicle.description,
        vehicle.warning,
        arrayLiteral(COLUMNS.map((column) => values[column.field] ?? '')),
      ],
    };
  },

  async summarise(db, { uploadId, organisationId }) {
    const uploader = await uploaderOf(db, uploadId);
    const groups = await loadGroups(db, uploadId);
    const refused: { group: StagedGroup; problem: RowProblem }[] = [];
    let accepted = 0;
    let duplicates = 0;
    // The dry run: every event goes through the registry's rules as the import will apply them,
    // and everything it wrote is rolled back.
    await dryRun(db, async (client) => {
      for (const group of groups) {
        const problem = precheck(group, uploader?.role);
        if (problem) {
          refused.push({ group, problem });
          continue;
        }
        const { event, repeatedRows } = groupEvent(group);
        await client.query('SAVEPOINT pledge_event');
        try {
          const outcome = await applyPledgeEvent(
            client,
            { organisationId, userId: uploader?.created_by ?? null, source: 'upload', uploadId },
            event,
          );
          await client.query('RELEASE SAVEPOINT pledge_event');
          if (outcome.outcome === 'duplicate') {
            duplicates += group.rows.length;
          } else {
            accepted += group.rows.length - repeatedRows;
            duplicates += repeatedRows;
          }
        } catch (error) {
          await client.query('ROLLBACK TO SAVEPOINT pledge_event');
          if (!isPledgeRuleError(error)) {
            throw error;
          }
          refused.push({ group, problem: { field: error.field, message: error.message } });
        }
      }
    });
    let rejected = 0;
    for (const { group, problem } of refused) {
      const field = problem.field?.includes('.') ? fieldOf(problem.field.split('.')) : problem.field;
      await db.query(
        `INSERT INTO upload_errors (upload_id, row_number, field, message, raw)
         SELECT upload_id, row_number, $3, $4, raw FROM upload_pledge_event_rows
          WHERE upload_id = $1 AND group_key = $2`,
        [uploadId, group.group_key, field, problem.message],
      );
      await db.query('DELETE FROM upload_pledge_event_rows WHERE upload_id = $1 AND group_key = $2', [
        uploadId,
        group.group_key,
      ]);
      rejected += group.rows.length;
    }
    const staged = groups.reduce((sum, group) => sum + group.rows.length, 0) - rejected;
    return { staged, accepted, restored: 0, duplicates, rejected };
  },

  async preview(db, uploadId, limit) {
    const { rows } = await db.query<{
      row_number: number;
      event: EventFields;
      vin: string | null;
      body_number: string | null;
      chassis_number: string | null;
      description: string | null;
      warning: string | null;
    }>(
      `SELECT row_number, event, vin, body_number, chassis_number, description, warning
         FROM upload_pledge_event_rows WHERE upload_id = $1 ORDER BY row_number LIMIT $2`,
      [uploadId, limit],
    );
    return rows.map((row): UploadPreviewRow => {
      const identifier = row.vin ?? row.body_number ?? row.chassis_number ?? '';
      const label = [
        `${PLEDGE_EVENT_KIND_LABELS[row.event.kind]} от ${ruDate(row.event.notificationDate)}`,
        row.event.registrationNumber ? `№ ${row.event.registrationNumber}` : null,
        row.description,
      ]
        .filter(Boolean)
        .join(' · ');
      return {
        rowNumber: row.row_number,
        kind: 'vin',
        documentType: null,
        identifier,
        displayIdentifier: row.vin ? identifier : `${row.body_number ? 'кузов' : 'шасси'} ${identifier}`,
        label,
        contractNumber: row.event.contract.number,
        pledgorName: partyName(row.event.pledgor as PledgeParty),
        warning: row.warning,
      };
    });
  },

  async importStaged(tx, { uploadId, organisationId, userId }) {
    const uploader = await uploaderOf(tx, uploadId);
    const groups = await loadGroups(tx, uploadId);
    const eventIds: string[] = [];
    let inserted = 0;
    let duplicates = 0;
    let added = 0;
    let archived = 0;
    for (const group of groups) {
      const problem = precheck(group, uploader?.role);
      const { event, repeatedRows } = groupEvent(group);
      try {
        if (problem) {
          throw new UploadFileError(problem.message);
        }
        const outcome = await applyPledgeEvent(
          tx,
          { organisationId, userId, source: 'upload', uploadId, rowNumber: group.first_row },
          event,
        );
        if (outcome.outcome === 'duplicate') {
          duplicates += group.rows.length;
          continue;
        }
        eventIds.push(outcome.eventId);
        inserted += group.rows.length - repeatedRows;
        duplicates += repeatedRows;
        added += outcome.added;
        archived += outcome.archived;
      } catch (error) {
        if (isPledgeRuleError(error) || error instanceof UploadFileError) {
          // The registry changed since the file was checked: nothing of the file is applied.
          throw new UploadFileError(
            `Строка ${group.first_row}: ${error.message}. Реестр изменился после проверки файла — ни одно событие не внесено, загрузите файл ещё раз`,
          );
        }
        throw error;
      }
    }
    const packageId = await createUploadPackage(tx, {
      organisationId,
      userId,
      uploadId,
      fileName: uploader?.file_name ?? 'file',
      eventIds,
    });
    if (eventIds.length > 0) {
      await recordAudit(tx, {
        organisationId,
        userId,
        action: 'pledge.events_imported',
        entity: 'upload',
        entityId: uploadId,
        details: { events: eventIds.length, packageId, monitoringAdded: added, monitoringArchived: archived },
      });
    }
    return { inserted, restored: 0, duplicates };
  },
};
