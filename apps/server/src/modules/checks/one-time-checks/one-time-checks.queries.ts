import type { ItemKind, SourceAnswer } from '@pledgewatch/contract';
import type { Queryable } from '../../../db/pool.ts';
import { containsPattern } from '../../../lib/like-pattern.ts';

export interface OneTimeCheckRow {
  id: string;
  organisation_id: string;
  organisation_name: string;
  number: string;
  kind: ItemKind;
  document_type: string | null;
  identifier: string;
  decoded: Record<string, unknown> | null;
  warnings: string[];
  status: 'completed' | 'partial' | 'failed';
  findings_count: number;
  demo: boolean;
  /** As stored: checks stored before the provider was recorded have none. */
  sources: (Omit<SourceAnswer, 'provider'> & { provider?: string | null })[];
  created_by: string | null;
  created_by_name: string;
  duration_ms: number;
  created_at: Date;
}

const COLUMNS = `c.id, c.organisation_id, o.name AS organisation_name, c.number, c.kind, c.document_type, c.identifier,
  c.decoded, c.warnings, c.status, c.findings_count, c.demo, c.sources, c.created_by, c.created_by_name,
  c.duration_ms, c.created_at`;

export interface NewOneTimeCheck {
  organisationId: string;
  kind: ItemKind;
  documentType: string | null;
  identifier: string;
  decoded: unknown;
  warnings: string[];
  status: OneTimeCheckRow['status'];
  findingsCount: number;
  demo: boolean;
  sources: SourceAnswer[];
  createdBy: string;
  durationMs: number;
  /** The asked sources' timings (source_answers), stored by the same statement. */
  answers: { type: string; ok: boolean; durationMs: number; error: string | null }[];
}

/**
 * Stores a check under the next number of the organisation's year («ПР-2026-000123»: prefix, year,
 * the counter padded to six digits) with its author's name, and returns it as getOneTimeCheck does.
 * One statement: the counter row's lock, which serialises an organisation's checks, is held for
 * this statement and its COMMIT, not across several round trips. The sources' timings go in with it:
 * one commit (one WAL flush) per check, not a second autocommitted insert beside it.
 */
export async function insertNumberedOneTimeCheck(
  db: Queryable,
  check: NewOneTimeCheck & { prefix: string; year: number },
): Promise<OneTimeCheckRow> {
  const { rows } = await db.query<OneTimeCheckRow>(
    `WITH counter AS (
       INSERT INTO one_time_check_counters (organisation_id, year, last_value) VALUES ($1, $14::int, 1)
       ON CONFLICT (organisation_id, year) DO UPDATE SET last_value = one_time_check_counters.last_value + 1
       RETURNING last_value
     ), c AS (
       INSERT INTO one_time_checks (organisation_id, number, kind, document_type, identifier, decoded, warnings, status,
                                    findings_count, demo, sources, created_by, created_by_name, duration_ms)
       SELECT $1, $13::text || '-' || $14::int || '-' || CASE WHEN last_value < 1000000 THEN lpad(last_value::text, 6, '0')
                                                    ELSE last_value::text END,
              $2, $3, $4, $5, $6, $7, $8, $9, $10, $11,
              coalesce((SELECT full_name FROM users WHERE id = $11), '—'), $12
         FROM counter
       RETURNING *
     ), answers AS (
       INSERT INTO source_answers (source_type, mode, items, ok, duration_ms, error)
       SELECT type, 'item', 1, ok, duration_ms, error
         FROM unnest($15::text[], $16::bool[], $17::int[], $18::text[]) AS a(type, ok, duration_ms, error)
     )
     SELECT ${COLUMNS} FROM c JOIN organisations o ON o.id = c.organisation_id`,
    [
      check.organisationId,
      check.kind,
      check.documentType,
      check.identifier,
      check.decoded === null ? null : JSON.stringify(check.decoded),
      JSON.stringify(check.warnings),
      check.status,
      check.findingsCount,
      check.demo,
      JSON.stringify(check.sources),
      check.createdBy,
      Math.round(check.durationMs),
      check.prefix,
      check.year,
      check.answers.map((a) => a.type),
      check.answers.map((a) => a.ok),
      check.answers.map((a) => Math.round(a.durationMs)),
      check.answers.map((a) => a.error),
    ],
  );
  return rows[0]!;
}

export async function getOneTimeCheck(
  db: Queryable,
  input: { id: string; organisationId: string },
): Promise<OneTimeCheckRow | undefined> {
  const { rows } = await db.query<OneTimeCheckRow>(
    `SELECT ${COLUMNS} FROM one_time_checks c JOIN organisations o ON o.id = c.organisation_id
      WHERE c.id = $1 AND c.organisation_id = $2`,
    [input.id, input.organisationId],
  );
  return rows[0];
}

export async function findOneTimeChecks(
  db: Queryable,
  filter: { organisationId: string; search?: string; kind?: ItemKind; limit: number; offset: number },
): Promise<{ items: OneTimeCheckRow[]; total: number }> {
  const search = filter.search ? containsPattern(filter.search.replace(/[\s-]+/g, '').toUpperCase()) : null;
  const where = `c.organisation_id = $1 AND ($2::text IS NULL OR c.identifier LIKE $2 OR upper(replace(c.number, '-', '')) LIKE $2)
    AND ($3::text IS NULL OR c.kind = $3)`;
  const params = [filter.organisationId, search, filter.kind ?? null];
  const [items, total] = await Promise.all([
    db.query<OneTimeCheckRow>(
      `SELECT ${COLUMNS} FROM one_time_checks c JOIN organisations o ON o.id = c.organisation_id
        WHERE ${where} ORDER BY c.created_at DESC, c.id DESC LIMIT $4 OFFSET $5`,
      [...params, filter.limit, filter.offset],
    ),
    db.query<{ count: number }>(`SELECT count(*) AS count FROM one_time_checks c WHERE ${where}`, params),
  ]);
  return { items: items.rows, total: total.rows[0]!.count };
}
