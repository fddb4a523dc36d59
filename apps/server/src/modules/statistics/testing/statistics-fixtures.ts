import type { Queryable } from '../../../db/pool.ts';

/**
 * Rows with known timestamps for the statistics, report and dashboard tests, written straight into
 * the tables (the engines that normally write them are tested elsewhere).
 */

let serial = 0;
const next = () => ++serial;

export async function insertItem(
  db: Queryable,
  organisationId: string,
  item: {
    kind?: 'vin' | 'document';
    identifier?: string;
    documentType?: string | null;
    label?: string | null;
    contractNumber?: string | null;
    pledgorName?: string | null;
    status?: 'active' | 'paused' | 'archived';
    createdAt?: string;
    archivedAt?: string | null;
    lastCheckedAt?: string | null;
  } = {},
): Promise<string> {
  const kind = item.kind ?? 'vin';
  const identifier =
    item.identifier ??
    (kind === 'vin' ? `XTA${String(next()).padStart(14, '0')}` : String(4_500_000_000 + next()));
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO monitoring_items (organisation_id, kind, document_type, identifier, label, contract_number, pledgor_name,
                                   status, origin, created_at, updated_at, archived_at, last_checked_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'form', coalesce($9::timestamptz, now()), coalesce($9::timestamptz, now()),
             $10, $11)
     RETURNING id`,
    [
      organisationId,
      kind,
      kind === 'document' ? (item.documentType ?? 'passport_rf') : null,
      identifier,
      item.label ?? null,
      item.contractNumber ?? null,
      item.pledgorName ?? null,
      item.status ?? (item.archivedAt ? 'archived' : 'active'),
      item.createdAt ?? null,
      item.archivedAt ?? null,
      item.lastCheckedAt ?? null,
    ],
  );
  return rows[0]!.id;
}

export async function insertRun(
  db: Queryable,
  organisationId: string,
  run: { createdAt?: string; itemsDone?: number; status?: string } = {},
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO check_runs (organisation_id, trigger, status, batch_size, items_total, items_done, batches_total,
                             batches_done, created_at, started_at, finished_at)
     VALUES ($1, 'manual', $2, 500, $3, $3, 1, 1, coalesce($4::timestamptz, now()), coalesce($4::timestamptz, now()),
             CASE WHEN $2 IN ('queued', 'running') THEN NULL ELSE coalesce($4::timestamptz, now()) END)
     RETURNING id`,
    [organisationId, run.status ?? 'completed', run.itemsDone ?? 0, run.createdAt ?? null],
  );
  return rows[0]!.id;
}

export async function insertEvent(
  db: Queryable,
  event: {
    organisationId: string;
    itemId: string;
    runId: string;
    type: string;
    source: string;
    severity?: string;
    detectedAt: string;
    read?: boolean;
    findingKey?: string;
    after?: Record<string, unknown> | null;
    before?: Record<string, unknown> | null;
  },
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO monitoring_events (organisation_id, item_id, run_id, source_type, event_type, severity, finding_key,
                                    before, after, detected_at, read_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, CASE WHEN $11 THEN now() END) RETURNING id`,
    [
      event.organisationId,
      event.itemId,
      event.runId,
      event.source,
      event.type,
      event.severity ?? 'high',
      event.findingKey ?? `key-${next()}`,
      event.before ? JSON.stringify(event.before) : null,
      event.after ? JSON.stringify(event.after) : null,
      event.detectedAt,
      event.read ?? false,
    ],
  );
  return rows[0]!.id;
}

export async function insertOneTimeCheck(
  db: Queryable,
  organisationId: string,
  check: {
    kind?: 'vin' | 'document';
    identifier?: string;
    createdAt?: string;
    status?: 'completed' | 'partial' | 'failed';
    findings?: number;
    sources?: Record<string, unknown>[];
  } = {},
): Promise<string> {
  const kind = check.kind ?? 'vin';
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO one_time_checks (organisation_id, number, kind, document_type, identifier, status, findings_count,
                                  sources, created_by_name, duration_ms, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'Тестовый Пользователь', 10, coalesce($9::timestamptz, now()))
     RETURNING id`,
    [
      organisationId,
      `ПР-2026-${String(next()).padStart(6, '0')}`,
      kind,
      kind === 'document' ? 'passport_rf' : null,
      check.identifier ?? (kind === 'vin' ? `XTB${String(next()).padStart(14, '0')}` : '4500123456'),
      check.status ?? 'completed',
      check.findings ?? 0,
      JSON.stringify(check.sources ?? []),
      check.createdAt ?? null,
    ],
  );
  return rows[0]!.id;
}

export async function insertUpload(
  db: Queryable,
  organisationId: string,
  upload: {
    createdAt?: string;
    fileName?: string;
    rows?: number;
    accepted?: number;
    rejected?: number;
    status?: string;
  } = {},
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO uploads (organisation_id, kind, file_name, status, rows_total, rows_processed, rows_accepted,
                          rows_rejected, created_at, updated_at, finished_at)
     VALUES ($1, 'items', $2, $3, $4, $4, $5, $6, coalesce($7::timestamptz, now()), coalesce($7::timestamptz, now()),
             coalesce($7::timestamptz, now()))
     RETURNING id`,
    [
      organisationId,
      upload.fileName ?? `portfolio-${next()}.csv`,
      upload.status ?? 'done',
      upload.rows ?? 0,
      upload.accepted ?? 0,
      upload.rejected ?? 0,
      upload.createdAt ?? null,
    ],
  );
  return rows[0]!.id;
}

export async function insertDelivery(
  db: Queryable,
  organisationId: string,
  delivery: { status: string; createdAt?: string },
): Promise<void> {
  await db.query(
    `INSERT INTO notification_deliveries (organisation_id, rule_name, method, recipient, kind, dedupe_key, status,
                                          max_attempts, created_at)
     VALUES ($1, 'Правило', 'email', 'a@test.ru', 'event', $2, $3, 3, coalesce($4::timestamptz, now()))`,
    [organisationId, `dedupe-${next()}-${Math.random()}`, delivery.status, delivery.createdAt ?? null],
  );
}
