import type { Readable } from 'node:stream';
import {
  DOCUMENT_TYPE_LABELS,
  EVENT_TYPES,
  type EventType,
  FINDING_FIELD_LABELS,
  findingFieldLabel,
  formatFindingValue,
  ITEM_KINDS,
  ITEM_ORIGIN_LABELS,
  ITEM_STATUS_LABELS,
  type ItemOrigin,
  type ItemStatus,
  ONE_TIME_CHECK_STATUS_LABELS,
  REPORT_DEFAULT_ITEM_STATUSES,
  REPORT_KIND_LABELS,
  REPORT_PDF_ROW_LIMIT,
  type ReportFormat,
  type ReportKind,
  type ReportQuery,
  SEVERITIES,
  type Severity,
  SOURCE_TYPES,
  type SourceType,
  UPLOAD_KIND_LABELS,
  UPLOAD_STATUS_LABELS,
  type UploadKind,
  type UploadStatus,
} from '@pledgewatch/contract';
import { type DocumentType, formatDocument } from '@pledgewatch/identifiers';
import type pg from 'pg';
import type { AuthContext } from '../../lib/auth-context.ts';
import { containsPattern } from '../../lib/like-pattern.ts';
import { formatMoscowDate, formatMoscowDateTime, moscowMidnight } from '../../lib/moscow-time.ts';
import { nextDay } from '../statistics/index.ts';
import {
  type Cell,
  csvReport,
  pdfReport,
  type ReportColumn,
  type RowBatches,
  xlsxReport,
} from './report-files.ts';
import {
  countReportRows,
  type EventReportRow,
  eventsReportSql,
  type OneTimeCheckReportRow,
  oneTimeChecksReportSql,
  type PortfolioReportRow,
  portfolioReportSql,
  type ReportSql,
  reportSelect,
  streamRows,
  type UploadReportRow,
  uploadsReportSql,
} from './reports.queries.ts';

export interface ReportFile {
  fileName: string;
  contentType: string;
  /** Rows the report holds (a PDF shows at most REPORT_PDF_ROW_LIMIT of them). */
  rows: number;
  estimatedBytes: number;
  body: Readable;
}

const kindLabel = (kind: string) => (kind === 'vin' ? 'VIN' : 'Документ');
const identifierOf = (kind: string, documentType: string | null, identifier: string) =>
  kind === 'document' && documentType ? formatDocument(documentType as DocumentType, identifier) : identifier;
const documentTypeOf = (documentType: string | null) =>
  documentType ? (DOCUMENT_TYPE_LABELS[documentType as DocumentType] ?? documentType) : null;
const sourceName = (type: string) => SOURCE_TYPES[type as SourceType]?.name ?? type;

const FIELD_ORDER = Object.keys(FINDING_FIELD_LABELS);
const fieldRank = (key: string) => {
  const index = FIELD_ORDER.indexOf(key);
  return index === -1 ? FIELD_ORDER.length : index;
};

/** A source record in one line: «Номер уведомления: 123; Залогодержатель: Банк». */
function recordText(payload: Record<string, unknown> | null): string | null {
  if (!payload) {
    return null;
  }
  const parts: string[] = [];
  // In the order the labels are listed (jsonb keeps its own key order), unknown fields last.
  const entries = Object.entries(payload).sort(([a], [b]) => fieldRank(a) - fieldRank(b));
  for (const [key, value] of entries) {
    if (value === null || value === undefined || value === '' || key === 'demo') {
      continue;
    }
    parts.push(`${findingFieldLabel(key)}: ${formatFindingValue(key, value)}`);
  }
  return parts.join('; ') || null;
}

interface ReportDefinition<Row> {
  title: string;
  sheetName: string;
  columns: ReportColumn[];
  sql: ReportSql;
  toCells: (row: Row) => Cell[];
  /** Rough bytes per CSV row, for the progress estimate. */
  bytesPerRow: number;
  /** Fewer, merged columns for print, when the full set is too wide for a page. */
  pdf?: { columns: ReportColumn[]; toCells: (row: Row) => Cell[] };
}

const EVENT_COLUMNS: ReportColumn[] = [
  { header: 'Обнаружено (МСК)', width: 17, pdfMinWidth: 68, date: 'datetime' },
  { header: 'Событие', width: 32 },
  { header: 'Важность', width: 12, pdfValues: Object.values(SEVERITIES).map((severity) => severity.label) },
  { header: 'Источник', width: 20 },
  { header: 'Вид объекта', width: 11 },
  { header: 'VIN / номер документа', width: 22, text: true, pdfMinWidth: 90 },
  { header: 'Тип документа', width: 16 },
  { header: 'Метка', width: 20 },
  { header: 'Номер договора', width: 16, text: true },
  { header: 'Запись источника', width: 18, text: true },
  { header: 'Было', width: 40 },
  { header: 'Стало', width: 40 },
  { header: 'Прочитано', width: 10 },
];

/**
 * The events PDF, laid out for reading on a landscape page: the object's kind and document type go
 * into one «Объект» cell, the label and the contract into another; the source's record key and the
 * read mark (working data, not for print) are left to XLSX and CSV.
 */
const EVENT_PDF_COLUMNS: ReportColumn[] = [
  // Date over time in two short lines; the rest shares the page in points (A4 landscape: 794).
  { header: 'Обнаружено (МСК)', width: 0, pdfMinWidth: 48 },
  { header: 'Событие', width: 90 },
  { header: 'Важность', width: 42, pdfValues: Object.values(SEVERITIES).map((severity) => severity.label) },
  { header: 'Источник', width: 55 },
  { header: 'Объект', width: 0, pdfMinWidth: 84 },
  { header: 'Метка, договор', width: 85 },
  { header: 'Было', width: 195 },
  { header: 'Стало', width: 195 },
];

const PORTFOLIO_COLUMNS: ReportColumn[] = [
  { header: 'Вид объекта', width: 11 },
  { header: 'VIN / номер документа', width: 22, text: true, pdfMinWidth: 90 },
  { header: 'Тип документа', width: 16 },
  { header: 'Метка', width: 20 },
  { header: 'Номер договора', width: 16, text: true },
  { header: 'Залогодатель', width: 24 },
  { header: 'Статус', width: 14, pdfValues: Object.values(ITEM_STATUS_LABELS) },
  { header: 'Откуда', width: 14 },
  { header: 'Добавлен (МСК)', width: 17, pdfMinWidth: 68, date: 'datetime' },
  { header: 'Последняя проверка (МСК)', width: 17, pdfMinWidth: 68, date: 'datetime' },
  { header: 'Находок', width: 9 },
  { header: 'Источники с находками', width: 30 },
  { header: 'Непрочитанных событий', width: 12 },
];

const CHECK_COLUMNS: ReportColumn[] = [
  { header: 'Номер проверки', width: 16, text: true, pdfMinWidth: 70 },
  { header: 'Дата (МСК)', width: 17, pdfMinWidth: 68, date: 'datetime' },
  { header: 'Вид объекта', width: 11 },
  { header: 'VIN / номер документа', width: 22, text: true, pdfMinWidth: 90 },
  { header: 'Тип документа', width: 16 },
  { header: 'Результат', width: 24 },
  { header: 'Находок', width: 9 },
  { header: 'Источники с находками', width: 30 },
  { header: 'Недоступные источники', width: 24 },
  { header: 'Проверил', width: 22 },
];

const UPLOAD_COLUMNS: ReportColumn[] = [
  { header: 'Загружен (МСК)', width: 17, pdfMinWidth: 68, date: 'datetime' },
  { header: 'Файл', width: 28 },
  { header: 'Вид загрузки', width: 18 },
  { header: 'Статус', width: 18, pdfValues: Object.values(UPLOAD_STATUS_LABELS) },
  { header: 'Строк', width: 9 },
  { header: 'Принято', width: 9 },
  { header: 'Повторов', width: 9 },
  { header: 'Отклонено', width: 10 },
  { header: 'Возвращено из архива', width: 12 },
  { header: 'Загрузил', width: 22 },
  { header: 'Завершена (МСК)', width: 17, pdfMinWidth: 68, date: 'datetime' },
  { header: 'Ошибка', width: 30 },
];

const likePattern = (value: string | undefined) => {
  const text = value?.trim().toLowerCase();
  return text ? containsPattern(text) : null;
};
const listOrNull = <T>(values: T[] | undefined) => (values?.length ? values : null);

const ruDate = (date: string) => `${date.slice(8, 10)}.${date.slice(5, 7)}.${date.slice(0, 4)}`;
const periodText = (query: ReportQuery) =>
  query.from && query.to ? `${ruDate(query.from)}–${ruDate(query.to)}` : null;

/** Exported for the layout tests. */
export function definitionOf(query: ReportQuery, organisationId: string): ReportDefinition<never> {
  const fromTs = query.from ? moscowMidnight(query.from) : null;
  const toTs = query.to ? moscowMidnight(nextDay(query.to)) : null;
  switch (query.kind) {
    case 'events':
      return {
        title: REPORT_KIND_LABELS.events,
        sheetName: 'События',
        columns: EVENT_COLUMNS,
        bytesPerRow: 330,
        sql: eventsReportSql({
          organisationId,
          fromTs: fromTs!,
          toTs: toTs!,
          types: listOrNull(query.type),
          severities: listOrNull(query.severity),
          sources: listOrNull(query.source),
          itemKind: query.itemKind ?? null,
          read: query.read ?? null,
          labelPattern: likePattern(query.label),
          itemId: query.itemId ?? null,
          runId: query.runId ?? null,
          // As the events list searches: spaces and dashes are not part of identifiers.
          searchPattern: likePattern(query.search?.replace(/[\s-]+/g, '')),
        }),
        toCells: ((row: EventReportRow) => [
          row.detected,
          EVENT_TYPES[row.event_type as EventType]?.label ?? row.event_type,
          SEVERITIES[row.severity as Severity]?.label ?? row.severity,
          sourceName(row.source_type),
          kindLabel(row.kind),
          identifierOf(row.kind, row.document_type, row.identifier),
          documentTypeOf(row.document_type),
          row.label,
          row.contract_number,
          row.finding_key,
          recordText(row.before),
          recordText(row.after),
          row.read ? 'Да' : 'Нет',
        ]) as never,
        pdf: {
          columns: EVENT_PDF_COLUMNS,
          toCells: ((row: EventReportRow) => [
            row.detected,
            EVENT_TYPES[row.event_type as EventType]?.label ?? row.event_type,
            SEVERITIES[row.severity as Severity]?.label ?? row.severity,
            sourceName(row.source_type),
            [documentTypeOf(row.document_type), identifierOf(row.kind, row.document_type, row.identifier)]
              .filter(Boolean)
              .join('\n'),
            [row.label, row.contract_number ? `Договор ${row.contract_number}` : null]
              .filter(Boolean)
              .join('\n') || null,
            recordText(row.before),
            recordText(row.after),
          ]) as never,
        },
      };
    case 'portfolio':
      return {
        title: REPORT_KIND_LABELS.portfolio,
        sheetName: 'Портфель',
        columns: PORTFOLIO_COLUMNS,
        bytesPerRow: 190,
        sql: portfolioReportSql({
          organisationId,
          kinds: query.itemKind ? [query.itemKind] : [...ITEM_KINDS],
          statuses: query.status?.length ? query.status : [...REPORT_DEFAULT_ITEM_STATUSES],
          labelPattern: likePattern(query.label),
        }),
        toCells: ((row: PortfolioReportRow) => [
          kindLabel(row.kind),
          identifierOf(row.kind, row.document_type, row.identifier),
          documentTypeOf(row.document_type),
          row.label,
          row.contract_number,
          row.pledgor_name,
          ITEM_STATUS_LABELS[row.status as ItemStatus] ?? row.status,
          ITEM_ORIGIN_LABELS[row.origin as ItemOrigin] ?? row.origin,
          row.created,
          row.last_checked,
          row.findings,
          row.finding_sources?.map(sourceName).join(', ') || null,
          row.unread_events,
        ]) as never,
      };
    case 'one_time_checks':
      return {
        title: REPORT_KIND_LABELS.one_time_checks,
        sheetName: 'Разовые проверки',
        columns: CHECK_COLUMNS,
        bytesPerRow: 200,
        sql: oneTimeChecksReportSql({
          organisationId,
          fromTs: fromTs!,
          toTs: toTs!,
          itemKind: query.itemKind ?? null,
        }),
        toCells: ((row: OneTimeCheckReportRow) => {
          const sources = Array.isArray(row.sources) ? row.sources : [];
          const named = (source: (typeof sources)[number]) => source.name ?? sourceName(source.type ?? '');
          return [
            row.number,
            row.created,
            kindLabel(row.kind),
            identifierOf(row.kind, row.document_type, row.identifier),
            documentTypeOf(row.document_type),
            ONE_TIME_CHECK_STATUS_LABELS[row.status as keyof typeof ONE_TIME_CHECK_STATUS_LABELS] ??
              row.status,
            row.findings_count,
            sources
              .filter((source) => (source.findings?.length ?? 0) > 0)
              .map(named)
              .join(', ') || null,
            sources
              .filter((source) => source.status === 'failed')
              .map(named)
              .join(', ') || null,
            row.created_by_name,
          ];
        }) as never,
      };
    case 'uploads':
      return {
        title: REPORT_KIND_LABELS.uploads,
        sheetName: 'Загрузки',
        columns: UPLOAD_COLUMNS,
        bytesPerRow: 180,
        sql: uploadsReportSql({ organisationId, fromTs, toTs }),
        toCells: ((row: UploadReportRow) => [
          row.created,
          row.file_name,
          UPLOAD_KIND_LABELS[row.kind as UploadKind] ?? row.kind,
          UPLOAD_STATUS_LABELS[row.status as UploadStatus] ?? row.status,
          row.rows_total,
          row.rows_accepted,
          row.rows_duplicate,
          row.rows_rejected,
          row.rows_restored,
          row.created_by_name,
          row.finished,
          row.error_message,
        ]) as never,
      };
  }
}

const FILE_TITLES: Record<ReportKind, string> = {
  events: 'События',
  portfolio: 'Портфель',
  one_time_checks: 'Разовые проверки',
  uploads: 'Загрузки',
};

const CONTENT_TYPES: Record<ReportFormat, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv',
  pdf: 'application/pdf',
};

/** The file name: «События 01.03.2026–30.03.2026.xlsx», «Портфель на 31.03.2026.csv». */
export function reportFileName(query: ReportQuery, now = new Date()): string {
  const period = periodText(query) ?? `на ${formatMoscowDate(now)}`;
  return `${FILE_TITLES[query.kind]} ${period}.${query.format}`;
}

/**
 * Builds a report as a stream: the row count first (for the progress estimate), then the rows through
 * a cursor, written as they are read. Nothing but one batch of rows is held in memory.
 */
export async function buildReport(options: {
  db: pg.Pool;
  auth: AuthContext;
  query: ReportQuery;
}): Promise<ReportFile> {
  const { db, query } = options;
  const definition = definitionOf(query, options.auth.organisationId);
  const total = await countReportRows(db, definition.sql);
  const limit = query.format === 'pdf' ? REPORT_PDF_ROW_LIMIT : undefined;
  const layout = query.format === 'pdf' && definition.pdf ? definition.pdf : definition;
  const toCells = layout.toCells as (row: unknown) => Cell[];
  async function* batches(): RowBatches {
    for await (const rows of streamRows<unknown>(
      db,
      reportSelect(definition.sql),
      definition.sql.params,
      limit,
    )) {
      yield rows.map(toCells);
    }
  }
  const shown = Math.min(total, limit ?? total);
  const fileName = reportFileName(query);
  const subtitle = [
    periodText(query) ? `Период: ${periodText(query)} (МСК)` : null,
    `Сформирован: ${formatMoscowDateTime(new Date())} (МСК)`,
    `Строк: ${total}`,
  ]
    .filter(Boolean)
    .join(' · ');

  let body: Readable;
  let estimatedBytes = 200 + shown * definition.bytesPerRow;
  if (query.format === 'csv') {
    body = csvReport({ columns: definition.columns, rows: batches(), encoding: query.encoding });
  } else if (query.format === 'xlsx') {
    // Zipped XML: about a third of the CSV, plus the package's fixed parts.
    estimatedBytes = 6000 + Math.round(shown * definition.bytesPerRow * 0.35);
    body = xlsxReport({ sheetName: definition.sheetName, columns: definition.columns, rows: batches() });
  } else {
    estimatedBytes = 30_000 + shown * 120;
    body = pdfReport({
      title: definition.title,
      subtitle,
      columns: layout.columns,
      rows: batches(),
      total,
      limit: REPORT_PDF_ROW_LIMIT,
      limitNote: `Показаны первые ${REPORT_PDF_ROW_LIMIT} строк из ${total}. Полный отчёт — в форматах XLSX и CSV.`,
      emptyNote: 'Нет данных за выбранный период и с выбранными условиями.',
    });
  }
  const charset = query.format === 'csv' ? `; charset=${query.encoding}` : '';
  return {
    fileName,
    contentType: `${CONTENT_TYPES[query.format]}${charset}`,
    rows: total,
    estimatedBytes,
    body,
  };
}
