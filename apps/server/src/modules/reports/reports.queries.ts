import type pg from 'pg';
import { itemLastCheckedSql } from '../../db/item-last-check.ts';
import type { Queryable } from '../../db/pool.ts';

/** Rows are read from a server-side cursor this many at a time: memory holds one batch. */
export const CURSOR_BATCH = 1000;

/**
 * Reads a query through a cursor in a read-only transaction on its own connection, one batch at a
 * time. The caller pulls (for await), so a slow download slows the reads instead of filling memory;
 * stopping early (client gone) closes the cursor and gives the connection back.
 */
export async function* streamRows<T>(
  pool: pg.Pool,
  sql: string,
  params: unknown[],
  limit?: number,
): AsyncGenerator<T[]> {
  const client = await pool.connect();
  let state: 'open' | 'done' | 'failed' = 'open';
  try {
    await client.query('BEGIN READ ONLY');
    await client.query(`DECLARE report_cursor NO SCROLL CURSOR FOR ${sql}`, params);
    let left = limit ?? Number.POSITIVE_INFINITY;
    while (left > 0) {
      const { rows } = await client.query<T & pg.QueryResultRow>(
        `FETCH ${Math.min(CURSOR_BATCH, left)} FROM report_cursor`,
      );
      if (rows.length === 0) {
        break;
      }
      left -= rows.length;
      yield rows;
    }
    await client.query('COMMIT');
    state = 'done';
  } catch (error) {
    state = 'failed';
    throw error;
  } finally {
    if (state === 'open') {
      // Abandoned mid-way (the download was cancelled): an open transaction must not go back to the pool.
      const clean = await client.query('ROLLBACK').then(
        () => true,
        () => false,
      );
      client.release(clean ? undefined : true);
    } else {
      client.release(state === 'failed' ? true : undefined);
    }
  }
}

export interface ReportSql {
  /** SELECT … without ORDER BY/LIMIT, for the count. */
  from: string;
  columns: string;
  orderBy: string;
  params: unknown[];
}

export async function countReportRows(db: Queryable, sql: ReportSql): Promise<number> {
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n ${sql.from}`, sql.params);
  return rows[0]!.n;
}

export const reportSelect = (sql: ReportSql) => `SELECT ${sql.columns} ${sql.from} ORDER BY ${sql.orderBy}`;

const MOSCOW = (column: string) => `to_char(${column} AT TIME ZONE 'Europe/Moscow', 'DD.MM.YYYY HH24:MI')`;

export interface EventReportRow {
  detected: string;
  event_type: string;
  severity: string;
  source_type: string;
  kind: string;
  document_type: string | null;
  identifier: string;
  label: string | null;
  contract_number: string | null;
  finding_key: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  read: boolean;
  first_check: boolean;
}

export function eventsReportSql(filter: {
  organisationId: string;
  fromTs: string;
  toTs: string;
  types: string[] | null;
  severities: string[] | null;
  sources: string[] | null;
  itemKind: string | null;
  read: boolean | null;
  labelPattern: string | null;
  itemId?: string | null;
  runId?: string | null;
  /** The events list's search: lower case, without spaces and dashes, as a LIKE pattern. */
  searchPattern?: string | null;
}): ReportSql {
  return {
    columns: `${MOSCOW('e.detected_at')} AS detected, e.event_type, e.severity, e.source_type, i.kind, i.document_type,
      i.identifier, i.label, i.contract_number, e.finding_key, e.before, e.after, e.read_at IS NOT NULL AS read,
      e.first_check`,
    from: `FROM monitoring_events e JOIN monitoring_items i ON i.id = e.item_id
      WHERE e.organisation_id = $1 AND e.detected_at >= $2 AND e.detected_at < $3
        AND ($4::text[] IS NULL OR e.event_type = ANY($4)) AND ($5::text[] IS NULL OR e.severity = ANY($5))
        AND ($6::text[] IS NULL OR e.source_type = ANY($6)) AND ($7::text IS NULL OR i.kind = $7)
        AND ($8::boolean IS NULL OR (e.read_at IS NOT NULL) = $8) AND ($9::text IS NULL OR lower(i.label) LIKE $9)
        AND ($10::uuid IS NULL OR e.item_id = $10) AND ($11::uuid IS NULL OR e.run_id = $11)
        AND ($12::text IS NULL OR lower(i.identifier) LIKE $12 OR lower(i.label) LIKE $12
             OR lower(i.contract_number) LIKE $12 OR lower(e.finding_key) LIKE $12)`,
    orderBy: 'e.detected_at DESC, e.id DESC',
    params: [
      filter.organisationId,
      filter.fromTs,
      filter.toTs,
      filter.types,
      filter.severities,
      filter.sources,
      filter.itemKind,
      filter.read,
      filter.labelPattern,
      filter.itemId ?? null,
      filter.runId ?? null,
      filter.searchPattern ?? null,
    ],
  };
}

export interface PortfolioReportRow {
  kind: string;
  document_type: string | null;
  identifier: string;
  label: string | null;
  contract_number: string | null;
  pledgor_name: string | null;
  status: string;
  origin: string;
  created: string;
  last_checked: string | null;
  findings: number;
  finding_sources: string[] | null;
  unread_events: number;
}

/** The portfolio in the order of its identity index, with each item's current findings. */
export function portfolioReportSql(filter: {
  organisationId: string;
  kinds: string[];
  statuses: string[];
  labelPattern: string | null;
}): ReportSql {
  return {
    columns: `i.kind, i.document_type, i.identifier, i.label, i.contract_number, i.pledgor_name, i.status, i.origin,
      ${MOSCOW('i.created_at')} AS created, ${MOSCOW(itemLastCheckedSql('i.id'))} AS last_checked,
      coalesce(f.findings, 0)::int AS findings, f.sources AS finding_sources,
      (SELECT count(*) FROM monitoring_events e WHERE e.item_id = i.id AND e.read_at IS NULL)::int AS unread_events`,
    from: `FROM monitoring_items i
      LEFT JOIN LATERAL (
        SELECT sum(jsonb_array_length(s.findings)) AS findings,
               array_agg(s.source_type ORDER BY s.source_type) AS sources
          FROM finding_snapshots s WHERE s.item_id = i.id AND jsonb_array_length(s.findings) > 0
      ) f ON true
      WHERE i.organisation_id = $1 AND i.kind = ANY($2::text[]) AND i.status = ANY($3::text[])
        AND ($4::text IS NULL OR lower(i.label) LIKE $4)`,
    orderBy: "i.kind, i.identifier, coalesce(i.document_type, '')",
    params: [filter.organisationId, filter.kinds, filter.statuses, filter.labelPattern],
  };
}

export interface OneTimeCheckReportRow {
  number: string;
  created: string;
  kind: string;
  document_type: string | null;
  identifier: string;
  status: string;
  findings_count: number;
  sources: { name?: string; type?: string; status?: string; findings?: unknown[] }[];
  created_by_name: string;
}

export function oneTimeChecksReportSql(filter: {
  organisationId: string;
  fromTs: string;
  toTs: string;
  itemKind: string | null;
}): ReportSql {
  return {
    columns: `number, ${MOSCOW('created_at')} AS created, kind, document_type, identifier, status, findings_count,
      sources, created_by_name`,
    from: `FROM one_time_checks WHERE organisation_id = $1 AND created_at >= $2 AND created_at < $3
      AND ($4::text IS NULL OR kind = $4)`,
    orderBy: 'created_at DESC, id DESC',
    params: [filter.organisationId, filter.fromTs, filter.toTs, filter.itemKind],
  };
}

export interface UploadReportRow {
  created: string;
  file_name: string;
  kind: string;
  status: string;
  rows_total: number;
  rows_accepted: number;
  rows_duplicate: number;
  rows_rejected: number;
  rows_restored: number;
  created_by_name: string | null;
  finished: string | null;
  error_message: string | null;
}

export function uploadsReportSql(filter: {
  organisationId: string;
  fromTs: string | null;
  toTs: string | null;
}): ReportSql {
  return {
    columns: `${MOSCOW('u.created_at')} AS created, u.file_name, u.kind, u.status, u.rows_total, u.rows_accepted,
      u.rows_duplicate, u.rows_rejected, u.rows_restored, us.full_name AS created_by_name,
      ${MOSCOW('u.finished_at')} AS finished, u.error_message`,
    from: `FROM uploads u LEFT JOIN users us ON us.id = u.created_by
      WHERE u.organisation_id = $1 AND ($2::timestamptz IS NULL OR u.created_at >= $2)
        AND ($3::timestamptz IS NULL OR u.created_at < $3)`,
    orderBy: 'u.created_at DESC, u.id DESC',
    params: [filter.organisationId, filter.fromTs, filter.toTs],
  };
}
