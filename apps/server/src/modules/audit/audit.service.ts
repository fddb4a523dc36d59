import type { Readable } from 'node:stream';
import {
  type AuditEntry,
  type AuditExportQuery,
  type AuditFacets,
  type AuditQuery,
  auditActionLabel,
  auditEntityLabel,
  describeAuditDetails,
} from '@pledgewatch/contract';
import type pg from 'pg';
import type { Queryable } from '../../db/pool.ts';
import type { AuthContext } from '../../lib/auth-context.ts';
import { formatMoscowDateTime } from '../../lib/moscow-time.ts';
import {
  type Cell,
  csvReport,
  type ReportColumn,
  type RowBatches,
  streamRows,
  xlsxReport,
} from '../reports/index.ts';
import { AUDIT_SELECT, type AuditRow, auditWhere, findAuditFacets, findAuditRows } from './audit.queries.ts';

const toEntry = (row: AuditRow): AuditEntry => ({
  id: row.id,
  createdAt: row.created_at.toISOString(),
  actor: row.user_id ? { id: row.user_id, fullName: row.full_name ?? '', email: row.email ?? '' } : null,
  action: row.action,
  entity: row.entity,
  entityId: row.entity_id,
  details: row.details ?? {},
});

/** The organisation's audit log, newest first, filtered by person, action, object and period. */
export async function findAuditEntries(options: {
  db: Queryable;
  auth: AuthContext;
  query: AuditQuery;
}): Promise<{ items: AuditEntry[]; total: number }> {
  const { page, pageSize, ...filter } = options.query;
  const { items, total } = await findAuditRows(
    options.db,
    { ...filter, organisationId: options.auth.organisationId },
    { limit: pageSize, offset: (page - 1) * pageSize },
  );
  return { items: items.map(toEntry), total };
}

export async function getAuditFacets(options: { db: Queryable; auth: AuthContext }): Promise<AuditFacets> {
  const facets = await findAuditFacets(options.db, options.auth.organisationId);
  return {
    actions: facets.actions,
    entities: facets.entities,
    actors: facets.actors.map((actor) => ({ id: actor.id, fullName: actor.full_name, email: actor.email })),
  };
}

const EXPORT_COLUMNS: ReportColumn[] = [
  { header: 'Дата и время (МСК)', width: 20, date: 'datetime-seconds' },
  { header: 'Сотрудник', width: 28 },
  { header: 'E-mail', width: 28 },
  { header: 'Действие', width: 34 },
  { header: 'Объект', width: 24 },
  { header: 'Идентификатор объекта', width: 38, text: true },
  { header: 'Что изменилось', width: 60 },
];

const toCells = (row: AuditRow): Cell[] => [
  formatMoscowDateTime(row.created_at, { seconds: true }),
  row.full_name ?? 'Система',
  row.email,
  auditActionLabel(row.action),
  auditEntityLabel(row.entity),
  row.entity_id,
  describeAuditDetails(row.details ?? {}).join('; '),
];

/** The filtered log as a file, streamed through a cursor (the log of a year may be large). */
export function exportAuditEntries(options: { db: pg.Pool; auth: AuthContext; query: AuditExportQuery }): {
  fileName: string;
  contentType: string;
  body: Readable;
} {
  const { format, ...filter } = options.query;
  const { where, params } = auditWhere({ ...filter, organisationId: options.auth.organisationId });
  async function* batches(): RowBatches {
    for await (const rows of streamRows<AuditRow>(
      options.db,
      `${AUDIT_SELECT} WHERE ${where} ORDER BY a.created_at DESC, a.id DESC`,
      params,
    )) {
      yield rows.map(toCells);
    }
  }
  const period = filter.from || filter.to ? ` ${filter.from ?? '…'}–${filter.to ?? '…'}` : '';
  if (format === 'csv') {
    return {
      fileName: `Журнал действий${period}.csv`,
      contentType: 'text/csv; charset=utf-8',
      body: csvReport({ columns: EXPORT_COLUMNS, rows: batches(), encoding: 'utf-8' }),
    };
  }
  return {
    fileName: `Журнал действий${period}.xlsx`,
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    body: xlsxReport({ sheetName: 'Журнал действий', columns: EXPORT_COLUMNS, rows: batches() }),
  };
}
